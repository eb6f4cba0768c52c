/// The Cholesky factorisation `A = L·Lᵀ` of a symmetric positive-definite matrix, and solves
/// with it. Used for the normal equations of Levenberg–Marquardt and for covariances.
///
/// The kernels ``factor(_:n:)`` and ``solve(factor:_:n:)`` work in place on row-major
/// storage, so that fixed small problems (a pose's 6×6 normal equations) can run them on stack
/// buffers with no allocation; the value type wraps them for everything else.
public struct Cholesky<Scalar: ARScalar>: Sendable {
  /// The lower-triangular factor (the strict upper triangle is zero).
  public let lower: DenseMatrix<Scalar>

  /// Factors `a`, reading its lower triangle; `nil` when `a` is not square, or not positive
  /// definite to working precision (a pivot ≤ `ulpOfOne` times the largest diagonal entry).
  @inlinable
  public init?(_ a: DenseMatrix<Scalar>) {
    guard a.rows == a.columns else { return nil }
    let n = a.rows
    var l = a
    let factored = l.elements.withUnsafeMutableBufferPointer { Self.factor($0.baseAddress!, n: n) }
    guard n == 0 || factored else { return nil }
    for i in 0..<n { for j in (i + 1)..<max(n, i + 1) { l[i, j] = 0 } }
    lower = l
  }

  /// The solution `x` of `A·x = b`.
  @inlinable
  public func solve(_ b: [Scalar]) -> [Scalar] {
    let n = lower.rows
    precondition(b.count == n, "Cholesky solve: right-hand side of \(b.count) for \(n)×\(n)")
    var x = b
    lower.elements.withUnsafeBufferPointer { l in
      x.withUnsafeMutableBufferPointer { Self.solve(factor: l.baseAddress!, $0.baseAddress!, n: n) }
    }
    return x
  }

  /// `A⁻¹`, column by column; for covariance matrices `(JᵀJ)⁻¹`.
  @inlinable
  public var inverse: DenseMatrix<Scalar> {
    let n = lower.rows
    var inv = DenseMatrix<Scalar>(rows: n, columns: n)
    withUnsafeTemporaryAllocation(of: Scalar.self, capacity: n) { column in
      lower.elements.withUnsafeBufferPointer { l in
        for c in 0..<n {
          column.initialize(repeating: 0)
          column[c] = 1
          Self.solve(factor: l.baseAddress!, column.baseAddress!, n: n)
          for r in 0..<n { inv[r, c] = column[r] }
        }
      }
    }
    return inv
  }

  /// Overwrites the lower triangle of the symmetric row-major `n×n` matrix at `a` with its
  /// Cholesky factor `L` (the upper triangle is left as it was); false when the matrix is not
  /// positive definite to working precision (a pivot ≤ `ulpOfOne` times the largest diagonal
  /// entry, or not finite).
  @inlinable
  public static func factor(_ a: UnsafeMutablePointer<Scalar>, n: Int) -> Bool {
    var largest: Scalar = 0
    for i in 0..<n { largest = Swift.max(largest, abs(a[i * n + i])) }
    for j in 0..<n {
      var d = a[j * n + j]
      for k in 0..<j { d -= a[j * n + k] * a[j * n + k] }
      guard d.isFinite, d > Scalar.ulpOfOne * largest, d > 0 else { return false }
      let ljj = d.squareRoot()
      a[j * n + j] = ljj
      for i in (j + 1)..<Swift.max(n, j + 1) {
        var s = a[i * n + j]
        for k in 0..<j { s -= a[i * n + k] * a[j * n + k] }
        a[i * n + j] = s / ljj
      }
    }
    return true
  }

  /// Solves `L·Lᵀ·x = b` in place (`b` becomes `x`), with `L` the lower triangle of the
  /// row-major `n×n` factor at `l` (as ``factor(_:n:)`` leaves it).
  @inlinable
  public static func solve(factor l: UnsafePointer<Scalar>, _ b: UnsafeMutablePointer<Scalar>, n: Int) {
    for i in 0..<n {  // L·y = b
      var s = b[i]
      for k in 0..<i { s -= l[i * n + k] * b[k] }
      b[i] = s / l[i * n + i]
    }
    for i in stride(from: n - 1, through: 0, by: -1) {  // Lᵀ·x = y
      var s = b[i]
      for k in (i + 1)..<Swift.max(n, i + 1) { s -= l[k * n + i] * b[k] }
      b[i] = s / l[i * n + i]
    }
  }
}
