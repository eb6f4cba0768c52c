import ARMath
import RealModule

/// Aligning trajectories: a visual-odometry track to GPS or to ground truth, one session's
/// points to another's. Least squares in closed form (Umeyama 1991, the SVD form of Horn's
/// method), with or without scale, or with the rotation restricted to a yaw about an up axis
/// (what gravity-aligned AR sessions differ by; ARGeo's compass calibration solves the same
/// problem in east/north with GPS weights).
public enum TrajectoryAlignment {
  /// The rotation (and scale, if asked) and translation taking `source[i]` to `target[i]`.
  /// - Throws: ``PoseError/degenerate(_:)`` with fewer than 3 pairs or all points collinear
  ///   (the rotation about their line is undetermined).
  public static func umeyama(
    source: [SIMD3<Double>], target: [SIMD3<Double>], withScale: Bool = false
  ) throws(PoseError) -> Similarity {
    guard source.count == target.count, source.count >= 3 else {
      throw .degenerate("alignment needs at least 3 point pairs, got \(min(source.count, target.count))")
    }
    let n = Double(source.count)
    let ms = source.reduce(SIMD3<Double>.zero, +) / n, mt = target.reduce(SIMD3<Double>.zero, +) / n
    var covariance = Matrix3<Double>.zero
    var sourceVariance = 0.0
    for (s, t) in zip(source, target) {
      let a = s - ms, b = t - mt
      covariance = covariance + Matrix3(b * a.x, b * a.y, b * a.z)  // Σ b·aᵀ
      sourceVariance += a.lengthSquared
    }
    covariance = covariance * (1 / n)
    sourceVariance /= n
    let svd = SVD3(covariance)
    guard svd.singularValues.y > 1e-12 * max(svd.singularValues.x, 1e-300) else {
      throw .degenerate("the points are collinear: the rotation about their line is undetermined")
    }
    let d: Double = (svd.u * svd.v.transposed).determinant < 0 ? -1 : 1
    let rotation = svd.u * Matrix3(diagonal: SIMD3(1, 1, d)) * svd.v.transposed
    let sv = svd.singularValues
    let scale = withScale ? (sv.x + sv.y + d * sv.z) / sourceVariance : 1
    let translation = mt - scale * (rotation * ms)
    return finish(rotation, translation, scale, source, target)
  }

  /// The yaw about `up` (and translation) taking `source[i]` to `target[i]`: gravity-aligned
  /// frames differ only by these. Needs 2 pairs with a horizontal lever arm.
  public static func yawOnly(
    source: [SIMD3<Double>], target: [SIMD3<Double>], up: SIMD3<Double> = [0, 1, 0]
  ) throws(PoseError) -> Similarity {
    guard source.count == target.count, source.count >= 2 else {
      throw .degenerate("yaw alignment needs at least 2 point pairs")
    }
    let u = up.normalized()
    let n = Double(source.count)
    let ms = source.reduce(SIMD3<Double>.zero, +) / n, mt = target.reduce(SIMD3<Double>.zero, +) / n
    // Maximise Σ b·R(θ)a over rotations about u: tan θ = Σ u·(a × b) / Σ (a⊥·b⊥).
    var sine = 0.0, cosine = 0.0
    for (s, t) in zip(source, target) {
      let a = s - ms, b = t - mt
      let ah = a - u * a.dot(u), bh = b - u * b.dot(u)
      cosine += ah.dot(bh)
      sine += u.dot(ah.cross(bh))
    }
    guard sine != 0 || cosine != 0 else {
      throw .degenerate("no horizontal lever arm: the yaw is undetermined")
    }
    let angle = Double.atan2(y: sine, x: cosine)
    let rotation = Quaternion(angle: Angle(radians: angle), axis: u).matrix
    return finish(rotation, mt - rotation * ms, 1, source, target)
  }

  private static func finish(
    _ rotation: Matrix3<Double>, _ translation: SIMD3<Double>, _ scale: Double, _ source: [SIMD3<Double>],
    _ target: [SIMD3<Double>]
  ) -> Similarity {
    var result = Similarity(rotation: rotation, translation: translation, scale: scale, rms: 0)
    let squared = zip(source, target).reduce(0.0) { $0 + (result.apply($1.0) - $1.1).lengthSquared }
    result.rms = (squared / Double(source.count)).squareRoot()
    return result
  }
}
