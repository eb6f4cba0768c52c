/// The singular value decomposition `A = U·diag(σ)·Vᵀ` of a 3×3 matrix, by one-sided Jacobi
/// (Hestenes) rotations, which keep small singular values accurate to round-off relative to the
/// large ones.
@frozen
public struct SVD3<Scalar: ARScalar>: Sendable {
  /// Left singular vectors as columns; orthonormal.
  public var u: Matrix3<Scalar>
  /// Singular values, non-negative and in descending order.
  public var singularValues: SIMD3<Scalar>
  /// Right singular vectors as columns; orthonormal.
  public var v: Matrix3<Scalar>

  /// Decomposes `a`. For rank-deficient input the left vectors of zero singular values complete
  /// an orthonormal basis (any valid completion).
  @inlinable
  public init(_ a: Matrix3<Scalar>) {
    var cols = [a.columns.0, a.columns.1, a.columns.2]  // becomes U·Σ
    var vs: [SIMD3<Scalar>] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    for _ in 0..<64 {
      var rotated = false
      for (p, q) in [(0, 1), (0, 2), (1, 2)] {
        let alpha = cols[p].lengthSquared, beta = cols[q].lengthSquared
        let gamma = cols[p].dot(cols[q])
        guard abs(gamma) > Scalar.ulpOfOne * (alpha * beta).squareRoot(), gamma != 0 else { continue }
        rotated = true
        // The plane rotation that makes columns p and q orthogonal.
        let zeta = (beta - alpha) / (2 * gamma)
        let t = (zeta >= 0 ? 1 : -1) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
        let c = 1 / (1 + t * t).squareRoot(), s = c * t
        (cols[p], cols[q]) = (cols[p] * c - cols[q] * s, cols[p] * s + cols[q] * c)
        (vs[p], vs[q]) = (vs[p] * c - vs[q] * s, vs[p] * s + vs[q] * c)
      }
      if !rotated { break }
    }
    let sigma = cols.map(\.length)
    let order = [0, 1, 2].sorted { sigma[$0] > sigma[$1] }
    var us = order.map { cols[$0] }
    let sorted = order.map { sigma[$0] }
    // Normalise the columns with a usable norm; complete the basis for the others.
    let tiny = sorted[0] * Scalar.ulpOfOne * 8
    for i in 0..<3 {
      if sorted[i] > tiny && sorted[i] > 0 {
        us[i] /= sorted[i]
      } else if i == 0 {
        us = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        break
      } else if i == 1 {
        us[1] = us[0].anyPerpendicular()
        us[2] = us[0].cross(us[1])
        break
      } else {
        us[2] = us[0].cross(us[1])
      }
    }
    u = Matrix3(us[0], us[1], us[2])
    singularValues = SIMD3(sorted[0], sorted[1], sorted[2])
    v = Matrix3(vs[order[0]], vs[order[1]], vs[order[2]])
  }
}

extension Matrix3 {
  /// The rotation nearest to this matrix in the Frobenius norm (the orthogonal Procrustes /
  /// Kabsch solution), `U·diag(1, 1, det(UVᵀ))·Vᵀ`, which is never a reflection.
  @inlinable
  public var nearestRotation: Matrix3 {
    let svd = SVD3(self)
    let d: Scalar = (svd.u * svd.v.transposed).determinant < 0 ? -1 : 1
    return svd.u * Matrix3(diagonal: SIMD3(1, 1, d)) * svd.v.transposed
  }
}
