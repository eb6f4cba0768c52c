import ARMath
import RealModule

/// One reading of a homography between two views of a plane: the second camera's rotation and
/// translation relative to the first, and the plane's normal in the first camera's frame.
public struct HomographyMotion: Sendable, Equatable {
  /// Rotation taking first-camera coordinates to second-camera coordinates.
  public var rotation: Matrix3<Double>
  /// Translation divided by the plane's distance from the first camera (scale is not observable).
  public var translationOverDistance: SIMD3<Double>
  /// Unit normal of the plane in the first camera's frame.
  public var normal: SIMD3<Double>
}

extension Homography {
  /// The motions a homography between two calibrated views of a plane allows (Faugeras and
  /// Lustman 1988, by SVD): with `H ∝ R + (t/d)·nᵀ` in normalised coordinates, up to four
  /// {R, t/d, n}; points in front of both cameras (`n·m > 0` for the first camera's rays `m`)
  /// decide between them. The map must be in normalised coordinates (`K⁻¹·H_pixels·K`).
  /// - Throws: ``PoseError/degenerate(_:)`` for a singular homography.
  public func motions() throws(PoseError) -> [HomographyMotion] {
    // A homography is defined up to scale, sign included; a real motion with the plane in
    // front of both cameras has det(R + t·nᵀ) = 1 + n·Rᵀt > 0, so fix the sign by it.
    let h = matrix.determinant < 0 ? matrix * -1 : matrix
    let svd = SVD3(h)
    let s1 = svd.singularValues.x, s2 = svd.singularValues.y, s3 = svd.singularValues.z
    guard s3 > 1e-12 * s1, s2 > 0 else { throw .degenerate("the homography is singular") }
    // Normalise so the middle singular value is 1: H = R + t·nᵀ exactly.
    let (a, b, c) = (s1 / s2, 1.0, s3 / s2)
    let u = svd.u, v = svd.v
    // det H > 0 makes det(U)·det(V) = +1, so U·R′·Vᵀ is a rotation.
    if a - c < 1e-12 {
      // All singular values equal: a pure rotation (t = 0), the plane undetermined.
      return [
        HomographyMotion(rotation: u * v.transposed, translationOverDistance: .zero, normal: v.columns.2)
      ]
    }
    var result: [HomographyMotion] = []
    let x1 = ((a * a - b * b) / (a * a - c * c)).squareRoot()
    let x3 = ((b * b - c * c) / (a * a - c * c)).squareRoot()
    for e1 in [1.0, -1.0] {
      for e3 in [1.0, -1.0] {
        let sinT = e1 * e3 * ((a * a - b * b) * (b * b - c * c)).squareRoot() / ((a + c) * b)
        let cosT = (b * b + a * c) / ((a + c) * b)
        let rp = Matrix3<Double>(rows: SIMD3(cosT, 0, -sinT), SIMD3(0, 1, 0), SIMD3(sinT, 0, cosT))
        let tp = SIMD3(e1 * x1, 0, -e3 * x3) * (a - c)
        let np = SIMD3(e1 * x1, 0, e3 * x3)
        let rotation = u * rp * v.transposed
        var normal = v * np
        var t = u * tp
        // The normal points towards the first camera's side of the plane.
        if normal.z < 0 {
          normal = -normal
          t = -t
        }
        result.append(HomographyMotion(rotation: rotation, translationOverDistance: t, normal: normal))
      }
    }
    return result
  }
}
