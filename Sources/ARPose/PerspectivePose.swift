import ARMath

/// General perspective-n-point: the pose of any known 3-D points (metres, target frame) from
/// their pixels. Planar sets (n ≥ 4) go through IPPE (``PlanarPose``) in the plane's own frame;
/// non-planar sets (n ≥ 6) through the direct linear transform of the projection matrix; both
/// are refined by Levenberg–Marquardt on the reprojection error.
public enum PerspectivePose {
  /// The best pose (and, for planar sets, the alternative IPPE pose second).
  public static func solve(
    targetPoints: [SIMD3<Double>], imagePoints: [SIMD2<Double>], intrinsics k: Pinhole<Double>,
    pixelSigma: Double = 1
  ) throws(PoseError) -> [PoseSolution] {
    guard targetPoints.count == imagePoints.count, targetPoints.count >= 4 else {
      throw .degenerate("PnP needs at least 4 point pairs, got \(min(targetPoints.count, imagePoints.count))")
    }
    for (i, p) in targetPoints.enumerated() where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
      throw .invalidInput(field: "points[\(i)]", reason: "not finite")
    }
    let n = Double(targetPoints.count)
    let centroid = targetPoints.reduce(SIMD3<Double>.zero, +) / n
    var scatter = Matrix3<Double>.zero
    for p in targetPoints {
      let d = p - centroid
      scatter = scatter + Matrix3(d * d.x, d * d.y, d * d.z)
    }
    let eigen = SymmetricEigen3(scatter)
    guard eigen.values.y > 1e-18 * max(eigen.values.z, 1e-300) else {
      throw .degenerate("the points are collinear")
    }
    if eigen.values.x <= 1e-10 * eigen.values.z {
      // Planar: express the points in the plane's frame (origin at the centroid, z along the
      // normal), solve there, and map back: camera_from_target = camera_from_plane · plane_from_target.
      // The eigenvectors ascend: the normal (least spread) becomes z, the two in-plane axes x and y.
      let v = eigen.vectors
      var axes = Matrix3(v.columns.1, v.columns.2, v.columns.0)
      if axes.determinant < 0 { axes = Matrix3(v.columns.1, v.columns.2, -v.columns.0) }
      let targetFromPlane = RigidTransform(rotationMatrix: axes, translation: centroid)
      let planeFromTarget = targetFromPlane.inverse
      let flat = targetPoints.map { p -> SIMD2<Double> in
        let q = planeFromTarget.transformPoint(p)
        return SIMD2(q.x, q.y)
      }
      return try PlanarPose.solve(
        targetPoints: flat, imagePoints: imagePoints, intrinsics: k, pixelSigma: pixelSigma
      ).map {
        var s = $0
        s.cameraFromTarget = s.cameraFromTarget * planeFromTarget
        return s
      }
    }
    guard targetPoints.count >= 6 else {
      throw .degenerate("a non-planar PnP needs at least 6 points (the DLT), got \(targetPoints.count)")
    }
    // DLT for P = [R | t] in normalised coordinates: 2 equations per point, 12 unknowns, p₃₄ = 1
    // after centring (the centroid has positive depth).
    var a = DenseMatrix<Double>(rows: 2 * targetPoints.count, columns: 11)
    var b = [Double](repeating: 0, count: 2 * targetPoints.count)
    for (i, (p, u)) in zip(targetPoints, imagePoints).enumerated() {
      let x = (u.x - k.cx) / k.fx, y = (u.y - k.cy) / k.fy
      let X = p - centroid
      let rowX: [Double] = [X.x, X.y, X.z, 1, 0, 0, 0, 0, -x * X.x, -x * X.y, -x * X.z]
      let rowY: [Double] = [0, 0, 0, 0, X.x, X.y, X.z, 1, -y * X.x, -y * X.y, -y * X.z]
      for j in 0..<11 {
        a[2 * i, j] = rowX[j]
        a[2 * i + 1, j] = rowY[j]
      }
      b[2 * i] = x
      b[2 * i + 1] = y
    }
    guard let qr = HouseholderQR(a), qr.isFullRank, let h = qr.solve(b) else {
      throw .degenerate("the points do not determine a projection")
    }
    let m = Matrix3<Double>(rows: SIMD3(h[0], h[1], h[2]), SIMD3(h[4], h[5], h[6]), SIMD3(h[8], h[9], h[10]))
    let column = SIMD3(h[3], h[7], 1)
    let scale = 1 / Double.root(abs(m.determinant), 3)
    let sign: Double = m.determinant > 0 ? 1 : -1
    let rotation = (m * (scale * sign)).nearestRotation
    let t = column * (scale * sign) - rotation * centroid
    let solution = PlanarPose.refine(
      RigidTransform(rotationMatrix: rotation, translation: t), targetPoints: targetPoints,
      imagePoints: imagePoints,
      intrinsics: k, pixelSigma: pixelSigma)
    return [solution]
  }
}
