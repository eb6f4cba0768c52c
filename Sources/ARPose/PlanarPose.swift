import ARMath
import RealModule

/// Pose of a planar target from its points (in its own plane, z = 0, metres) and their images:
/// IPPE, "Infinitesimal Plane-based Pose Estimation" (Collins and Bartoli, IJCV 2014), which
/// gives both poses a plane seen under perspective can have, then Levenberg–Marquardt on the
/// reprojection error for each.
public enum PlanarPose {
  /// The two IPPE poses, refined and sorted by reprojection error (best first).
  ///
  /// - Parameters:
  ///   - targetPoints: The target's points in its plane (x, y), metres; at least 4, not collinear.
  ///   - imagePoints: Their pixels (`u = fx·x/z + cx`, `v = fy·y/z + cy`).
  ///   - k: The camera, pixels.
  ///   - pixelSigma: The 1-σ noise of the image points, for the covariance.
  public static func solve(
    targetPoints: [SIMD2<Double>], imagePoints: [SIMD2<Double>], intrinsics k: Pinhole<Double>,
    pixelSigma: Double = 1
  ) throws(PoseError) -> [PoseSolution] {
    guard targetPoints.count == imagePoints.count, targetPoints.count >= 4 else {
      throw .degenerate(
        "planar pose needs at least 4 point pairs, got \(min(targetPoints.count, imagePoints.count))")
    }
    guard k.fx > 0, k.fy > 0, k.fx.isFinite, k.fy.isFinite, k.cx.isFinite, k.cy.isFinite else {
      throw .invalidInput(field: "intrinsics", reason: "fx and fy must be positive, all finite")
    }
    let normalised = imagePoints.map(k.normalized)
    // Work about the target's centroid (IPPE's point of expansion), then move back.
    let centroid = targetPoints.reduce(SIMD2<Double>.zero, +) / Double(targetPoints.count)
    let centred = targetPoints.map { $0 - centroid }
    let h = try Homography.estimate(from: centred, to: normalised)
    var solutions: [PoseSolution] = []
    for rotation in try ippeRotations(h) {
      let t = translation(rotation: rotation, target: centred, normalised: normalised)
      // Back to the target's own origin: X_centred = X − c.
      let shifted = t - rotation * SIMD3(centroid.x, centroid.y, 0)
      let initial = RigidTransform(rotationMatrix: rotation, translation: shifted)
      solutions.append(
        refine(
          initial, targetPoints: targetPoints.map { SIMD3($0.x, $0.y, 0) }, imagePoints: imagePoints,
          intrinsics: k,
          pixelSigma: pixelSigma))
    }
    return solutions.sorted { $0.reprojectionError < $1.reprojectionError }
  }

  /// IPPE's two rotations from the homography `h` (centred target → normalised image): from
  /// the homography's Jacobian at the target's centre (Collins and Bartoli, section 4).
  static func ippeRotations(_ h: Homography) throws(PoseError) -> [Matrix3<Double>] {
    let m = h.matrix
    // Image of the centre, and the Jacobian of the projective map there.
    let h33 = m[2, 2]
    guard h33 != 0 else { throw .degenerate("the target's centre is at infinity in the image") }
    let v = SIMD2(m[2, 0] / h33, m[2, 1] / h33)
    let j00 = m[0, 0] / h33 - v.x * m[0, 2] / h33, j01 = m[1, 0] / h33 - v.x * m[1, 2] / h33
    let j10 = m[0, 1] / h33 - v.y * m[0, 2] / h33, j11 = m[1, 1] / h33 - v.y * m[1, 2] / h33
    // R_v: the rotation taking the optical axis (0, 0, 1) to the ray through v.
    let rv: Matrix3<Double>
    let t = (v.x * v.x + v.y * v.y).squareRoot()
    if t == 0 {
      rv = .identity
    } else {
      let s = (1 + t * t).squareRoot()
      let cosTheta = 1 / s, sinTheta = t / s
      let axis = SIMD3(-v.y / t, v.x / t, 0)  // (0,0,1) × (v, 1), normalised
      rv = Quaternion(angle: Angle(radians: Double.atan2(y: sinTheta, x: cosTheta)), axis: axis).matrix
    }
    // B = [I | −v]·R_v[:, 0..1], A = B⁻¹·J.
    let c0 = rv.columns.0, c1 = rv.columns.1
    let b00 = c0.x - v.x * c0.z, b01 = c1.x - v.x * c1.z
    let b10 = c0.y - v.y * c0.z, b11 = c1.y - v.y * c1.z
    let detB = b00 * b11 - b01 * b10
    guard detB != 0 else { throw .degenerate("degenerate view of the target") }
    let a00 = (b11 * j00 - b01 * j10) / detB, a01 = (b11 * j01 - b01 * j11) / detB
    let a10 = (-b10 * j00 + b00 * j10) / detB, a11 = (-b10 * j01 + b00 * j11) / detB
    // γ: the largest singular value of A.
    let ata00 = a00 * a00 + a10 * a10, ata01 = a00 * a01 + a10 * a11, ata11 = a01 * a01 + a11 * a11
    let mean = (ata00 + ata11) / 2, diff = (ata00 - ata11) / 2
    let gamma = (mean + (diff * diff + ata01 * ata01).squareRoot()).squareRoot()
    guard gamma > 0, gamma.isFinite else { throw .degenerate("degenerate view of the target") }
    let r00 = a00 / gamma, r01 = a01 / gamma, r10 = a10 / gamma, r11 = a11 / gamma
    // b with b·bᵀ = I − R22ᵀ·R22 (rank one): the two signs are the two solutions.
    let m00 = 1 - (r00 * r00 + r10 * r10), m01 = -(r00 * r01 + r10 * r11), m11 = 1 - (r01 * r01 + r11 * r11)
    let b0 = max(0, m00).squareRoot()
    let b1 = (m01 >= 0 ? 1.0 : -1.0) * max(0, m11).squareRoot()
    return [1.0, -1.0].map { sign in
      let col0 = SIMD3(r00, r10, sign * b0), col1 = SIMD3(r01, r11, sign * b1)
      // Orthonormal up to rounding already (b completes R22's columns); Gram–Schmidt removes
      // the rounding without an SVD.
      let r = rv * Matrix3(col0, col1, col0.cross(col1))
      let x = r.columns.0.normalized()
      let y = (r.columns.1 - x * x.dot(r.columns.1)).normalized()
      return Matrix3(x, y, x.cross(y))
    }
  }

  /// The least-squares translation for a rotation: each point gives two linear equations
  /// `[1 0 −x; 0 1 −y]·(R·X + t) = 0`.
  static func translation(rotation r: Matrix3<Double>, target: [SIMD2<Double>], normalised: [SIMD2<Double>])
    -> SIMD3<Double>
  {
    var ata = Matrix3<Double>.zero
    var atb = SIMD3<Double>.zero
    for (p, x) in zip(target, normalised) {
      let rx = r * SIMD3(p.x, p.y, 0)
      let row0 = SIMD3(1, 0, -x.x), row1 = SIMD3(0, 1, -x.y)
      for row in [row0, row1] {
        ata = ata + Matrix3(row * row.x, row * row.y, row * row.z)
        atb -= row * row.dot(rx)
      }
    }
    return (ata.inverse ?? .identity) * atb
  }

  /// Levenberg–Marquardt on the reprojection error (ARMath's solver on ``ReprojectionProblem``),
  /// and the covariance of the six pose parameters from its normal matrix.
  static func refine(
    _ initial: RigidTransform<Double>, targetPoints: [SIMD3<Double>], imagePoints: [SIMD2<Double>],
    intrinsics k: Pinhole<Double>, pixelSigma: Double
  ) -> PoseSolution {
    let problem = ReprojectionProblem(targetPoints: targetPoints, imagePoints: imagePoints, intrinsics: k)
    // Converged when the gradient vanished, when no step can lower the cost by more than 10⁻¹⁰
    // of itself, or when the fit is exact to far below a pixel's rounding (10⁻¹² px a point):
    // IPPE starts close, and more iterations would only chase round-off.
    let solver = LevenbergMarquardt<Double>(
      gradientTolerance: 1e-14, costTolerance: 1e-10, costFloor: 0.5e-24 * Double(targetPoints.count),
      maxIterations: 100)
    let solution = solver.minimize(problem, from: initial)
    let rms = (2 * solution.cost / Double(targetPoints.count)).squareRoot()
    let covariance =
      (Cholesky(solution.normalMatrix)?.inverse.elements ?? [Double](repeating: .infinity, count: 36))
      .map { $0 * pixelSigma * pixelSigma }
    return PoseSolution(cameraFromTarget: solution.parameters, reprojectionError: rms, covariance: covariance)
  }
}
