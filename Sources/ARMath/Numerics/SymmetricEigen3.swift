/// The eigen-decomposition `A = V·diag(λ)·Vᵀ` of a symmetric 3×3 matrix, by cyclic Jacobi
/// rotations: slow-ish but accurate to round-off even for clustered eigenvalues, which is what
/// plane fitting (covariance of nearly coplanar points) needs.
@frozen
public struct SymmetricEigen3<Scalar: ARScalar>: Sendable {
  /// The eigenvalues in ascending order.
  public var values: SIMD3<Scalar>
  /// The unit eigenvectors as columns, in the order of ``values``; a right-handed rotation
  /// (`det = +1`).
  public var vectors: Matrix3<Scalar>

  /// Decomposes `a`, reading only its lower triangle (it is assumed symmetric).
  ///
  /// Converges in a handful of sweeps; it stops when the off-diagonal part is below round-off
  /// relative to the matrix's norm, or after 32 sweeps (never reached for finite input).
  @inlinable
  public init(_ a: Matrix3<Scalar>) {
    // Work on a symmetric copy: m[i][j] with i, j in 0…2.
    var m: [[Scalar]] = (0..<3).map { i in (0..<3).map { j in i >= j ? a[j, i] : a[i, j] } }
    var v: [[Scalar]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  // v[row][col]
    let scale = a.frobeniusNorm
    for _ in 0..<32 {
      let off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2]
      if off <= (Scalar.ulpOfOne * scale) * (Scalar.ulpOfOne * scale) { break }
      for (p, q) in [(0, 1), (0, 2), (1, 2)] where m[p][q] != 0 {
        // The rotation in the (p, q) plane that zeroes m[p][q] (Golub & Van Loan 8.5.2).
        let theta = (m[q][q] - m[p][p]) / (2 * m[p][q])
        let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (1 + theta * theta).squareRoot())
        let c = 1 / (1 + t * t).squareRoot(), s = t * c
        for k in 0..<3 {  // m ← m·J
          let (mkp, mkq) = (m[k][p], m[k][q])
          m[k][p] = c * mkp - s * mkq
          m[k][q] = s * mkp + c * mkq
        }
        for k in 0..<3 {  // m ← Jᵀ·m
          let (mpk, mqk) = (m[p][k], m[q][k])
          m[p][k] = c * mpk - s * mqk
          m[q][k] = s * mpk + c * mqk
        }
        for k in 0..<3 {  // v ← v·J
          let (vkp, vkq) = (v[k][p], v[k][q])
          v[k][p] = c * vkp - s * vkq
          v[k][q] = s * vkp + c * vkq
        }
      }
    }
    let order = [0, 1, 2].sorted { m[$0][$0] < m[$1][$1] }
    values = SIMD3(m[order[0]][order[0]], m[order[1]][order[1]], m[order[2]][order[2]])
    let column = { (j: Int) in SIMD3(v[0][j], v[1][j], v[2][j]) }
    var c0 = column(order[0]), c1 = column(order[1])
    let c2 = column(order[2])
    if c0.cross(c1).dot(c2) < 0 { c0 = -c0 }  // keep a proper rotation
    c1 = c2.cross(c0)  // exactly orthogonal to the other two up to round-off
    vectors = Matrix3(c0, c1, c2)
  }
}
