/// The Cholesky factorisation `A = L·Lᵀ` of a symmetric positive-definite matrix, and solves
/// with it. Used for the normal equations of Levenberg–Marquardt and for covariances.
public struct Cholesky<Scalar: ARScalar>: Sendable {
  /// The lower-triangular factor (the strict upper triangle is zero).
  public let lower: DenseMatrix<Scalar>

  /// Factors `a`, reading its lower triangle; `nil` when `a` is not square, or not positive
  /// definite to working precision (a pivot ≤ `ulpOfOne` times the largest diagonal entry).
  public init?(_ a: DenseMatrix<Scalar>) {
    guard a.rows == a.columns else { return nil }
    let n = a.rows
    var l = DenseMatrix<Scalar>(rows: n, columns: n)
    let largest = (0..<n).map { abs(a[$0, $0]) }.max() ?? 0
    for j in 0..<n {
      var d = a[j, j]
      for k in 0..<j { d -= l[j, k] * l[j, k] }
      guard d.isFinite, d > Scalar.ulpOfOne * largest, d > 0 else { return nil }
      let ljj = d.squareRoot()
      l[j, j] = ljj
      for i in (j + 1)..<max(n, j + 1) {
        var s = a[i, j]
        for k in 0..<j { s -= l[i, k] * l[j, k] }
        l[i, j] = s / ljj
      }
    }
    lower = l
  }

  /// The solution `x` of `A·x = b`.
  public func solve(_ b: [Scalar]) -> [Scalar] {
    let n = lower.rows
    precondition(b.count == n, "Cholesky solve: right-hand side of \(b.count) for \(n)×\(n)")
    var y = b
    for i in 0..<n {  // L·y = b
      for k in 0..<i { y[i] -= lower[i, k] * y[k] }
      y[i] /= lower[i, i]
    }
    for i in stride(from: n - 1, through: 0, by: -1) {  // Lᵀ·x = y
      for k in (i + 1)..<max(n, i + 1) { y[i] -= lower[k, i] * y[k] }
      y[i] /= lower[i, i]
    }
    return y
  }

  /// `A⁻¹`, column by column; for covariance matrices `(JᵀJ)⁻¹`.
  public var inverse: DenseMatrix<Scalar> {
    let n = lower.rows
    var inv = DenseMatrix<Scalar>(rows: n, columns: n)
    for c in 0..<n {
      var e = [Scalar](repeating: 0, count: n)
      e[c] = 1
      let x = solve(e)
      for r in 0..<n { inv[r, c] = x[r] }
    }
    return inv
  }
}
