import RealModule

/// The QR factorisation of an `m × n` matrix (`m ≥ n`) by Householder reflections, for
/// least-squares solves `min ‖A·x − b‖₂` that stay accurate when the normal equations would
/// square the condition number (DLT homographies, plane fits).
public struct HouseholderQR<Scalar: ARScalar>: Sendable {
  /// `R` in the upper triangle; the Householder vectors below the diagonal.
  @usableFromInline var qr: DenseMatrix<Scalar>
  /// The diagonal of `R`.
  @usableFromInline var rDiagonal: [Scalar]

  /// Factors `a`; `nil` when `a` has fewer rows than columns.
  @inlinable
  public init?(_ a: DenseMatrix<Scalar>) {
    guard a.rows >= a.columns else { return nil }
    qr = a
    rDiagonal = []
    let (m, n) = (a.rows, a.columns)
    for k in 0..<n {
      var norm: Scalar = 0
      for i in k..<m { norm = Scalar.hypot(norm, qr[i, k]) }
      if norm != 0 {
        if qr[k, k] < 0 { norm = -norm }
        for i in k..<m { qr[i, k] /= norm }
        qr[k, k] += 1
        for j in (k + 1)..<max(n, k + 1) {  // apply the reflection to the remaining columns
          var s: Scalar = 0
          for i in k..<m { s += qr[i, k] * qr[i, j] }
          s = -s / qr[k, k]
          for i in k..<m { qr[i, j] += s * qr[i, k] }
        }
      }
      rDiagonal.append(-norm)
    }
  }

  /// Whether `R` has no (relatively) zero diagonal entry, i.e. `A` has full column rank.
  @inlinable
  public var isFullRank: Bool {
    let largest = rDiagonal.map { abs($0) }.max() ?? 0
    return rDiagonal.allSatisfy { abs($0) > largest * Scalar.ulpOfOne * Scalar(max(qr.rows, 1)) }
  }

  /// The least-squares solution of `A·x ≈ b`, or `nil` when `A` is rank deficient.
  @inlinable
  public func solve(_ b: [Scalar]) -> [Scalar]? {
    let (m, n) = (qr.rows, qr.columns)
    precondition(b.count == m, "QR solve: right-hand side of \(b.count) for \(m) rows")
    guard isFullRank else { return nil }
    var y = b
    for k in 0..<n {  // y ← Qᵀ·b
      var s: Scalar = 0
      for i in k..<m { s += qr[i, k] * y[i] }
      s = -s / qr[k, k]
      for i in k..<m { y[i] += s * qr[i, k] }
    }
    var x = [Scalar](repeating: 0, count: n)
    for k in stride(from: n - 1, through: 0, by: -1) {  // R·x = (Qᵀb)[0..<n]
      var s = y[k]
      for j in (k + 1)..<max(n, k + 1) { s -= qr[k, j] * x[j] }
      x[k] = s / rDiagonal[k]
    }
    return x
  }
}
