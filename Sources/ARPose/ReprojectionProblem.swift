import ARMath

/// The reprojection error of a pose, as a least-squares problem for ARMath's
/// ``LevenbergMarquardt``: residuals `π(R·X + t) − u` in pixels for each target point `X`
/// (metres) and its image point `u`, parameters a rotation-vector perturbation composed onto
/// the rotation (left-multiplied, camera frame) and the translation (metres).
///
/// The normal equations are accumulated with the analytic Jacobian: with `c = R·X + t`, a
/// perturbation `ω` moves `c` by `ω × (R·X)`, so `∂r/∂ω = (R·X) × ∂r/∂c`. Rows are tuples and
/// the sums scalar-indexed: no allocation and no generic SIMD subscripts in the loop (both
/// showed in the marker benchmark's profile).
struct ReprojectionProblem: NormalEquationsProblem {
  let targetPoints: [SIMD3<Double>]
  let imagePoints: [SIMD2<Double>]
  /// `(fx, fy, cx, cy)`, pixels (OpenCV convention: x right, y down, looking down +Z).
  let intrinsics: Pinhole<Double>

  var parameterCount: Int { 6 }

  func evaluate(
    _ pose: RigidTransform<Double>, normal: UnsafeMutablePointer<Double>,
    gradient: UnsafeMutablePointer<Double>
  ) -> Double {
    let k = intrinsics
    var sum = 0.0
    for (x, u) in zip(targetPoints, imagePoints) {
      let a = pose.rotation.act(x), c = a + pose.translation
      let iz = 1 / c.z
      let ru = k.fx * c.x * iz + k.cx - u.x, rv = k.fy * c.y * iz + k.cy - u.y
      sum += ru * ru + rv * rv
      let du = SIMD3(k.fx * iz, 0, -k.fx * c.x * iz * iz), dv = SIMD3(0, k.fy * iz, -k.fy * c.y * iz * iz)
      let au = a.cross(du), av = a.cross(dv)
      let ju = (au.x, au.y, au.z, du.x, du.y, du.z), jv = (av.x, av.y, av.z, dv.x, dv.y, dv.z)
      NormalEquations.addRows(ju, ru, jv, rv, n: 6, normal: normal, rhs: gradient)
    }
    return sum / 2
  }

  func moved(_ pose: RigidTransform<Double>, by step: UnsafePointer<Double>) -> RigidTransform<Double> {
    let w = SIMD3(step[0], step[1], step[2])
    let angle = w.length
    let turn = angle > 0 ? Quaternion(angle: Angle(radians: angle), axis: w / angle) : .identity
    return RigidTransform(
      rotation: (turn * pose.rotation).normalized(),
      translation: pose.translation + SIMD3(step[3], step[4], step[5]))
  }

  /// The translation's length, with the rotation counted as 1 (a radian).
  func magnitude(_ pose: RigidTransform<Double>) -> Double {
    (pose.translation.lengthSquared + 1).squareRoot()
  }
}
