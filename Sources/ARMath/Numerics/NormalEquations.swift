/// Accumulating the normal equations `JᵀJ·δ = −Jᵀr` of a least-squares problem row by row, for
/// ``NormalEquationsProblem``s whose rows are a handful of scalars kept in registers.
public enum NormalEquations {
  /// Adds two residuals' rows: `normal += aᵀa + bᵀb` (`n×n`, row-major) and
  /// `rhs += aᵀ·aValue + bᵀ·bValue`, where the rows `a` and `b` are tuples of `n` doubles (a
  /// tuple stays in registers at the call site; it is read here by index). Two rows a call
  /// because image points give two residuals each, `u` and `v`.
  @inlinable @inline(__always)
  public static func addRows<Row>(
    _ a: Row, _ aValue: Double, _ b: Row, _ bValue: Double, n: Int, normal: UnsafeMutablePointer<Double>,
    rhs: UnsafeMutablePointer<Double>
  ) {
    precondition(MemoryLayout<Row>.size == n * MemoryLayout<Double>.size, "a row must be n doubles")
    withUnsafeBytes(of: a) { aBytes in
      withUnsafeBytes(of: b) { bBytes in
        let a = aBytes.bindMemory(to: Double.self), b = bBytes.bindMemory(to: Double.self)
        for i in 0..<n {
          rhs[i] += a[i] * aValue + b[i] * bValue
          for j in 0..<n { normal[i * n + j] += a[i] * a[j] + b[i] * b[j] }
        }
      }
    }
  }
}
