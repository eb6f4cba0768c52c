import ARMath

/// Square-marker pose estimation: IPPE plus refinement, as OpenCV's `SOLVEPNP_IPPE_SQUARE`.
public enum SquareMarker {
  /// The marker's corners in its own frame (metres, z = 0) in OpenCV's IPPE_SQUARE order:
  /// top-left, top-right, bottom-right, bottom-left = (−s/2, s/2), (s/2, s/2), (s/2, −s/2),
  /// (−s/2, −s/2). The marker's x axis points right, y up, z out of the marker towards the viewer.
  public static func corners(size s: Double) -> [SIMD2<Double>] {
    [SIMD2(-s / 2, s / 2), SIMD2(s / 2, s / 2), SIMD2(s / 2, -s / 2), SIMD2(-s / 2, -s / 2)]
  }

  /// Both poses of a square marker of side `size` (metres) whose corners (pixels, in the order
  /// of ``corners(size:)``) were seen by the camera `k`.
  /// - Throws: ``PoseError`` for a non-positive size, non-finite values, repeated or collinear
  ///   corners, corners whose outline crosses itself (wrong order), corners outside the image
  ///   (when its size is given), or a marker that would be behind the camera.
  public static func pose(
    corners: [SIMD2<Double>], size: Double, intrinsics k: Pinhole<Double>, imageSize: SIMD2<Double>? = nil,
    pixelSigma: Double = 0.5
  ) throws(PoseError) -> MarkerPose {
    guard size > 0, size.isFinite else {
      throw .invalidInput(field: "size", reason: "must be a positive number of metres")
    }
    guard corners.count == 4 else {
      throw .invalidInput(field: "corners", reason: "expected 4 corners, got \(corners.count)")
    }
    for (i, c) in corners.enumerated() where !(c.x.isFinite && c.y.isFinite) {
      throw .invalidInput(field: "corners[\(i)]", reason: "not finite")
    }
    if let imageSize {
      for (i, c) in corners.enumerated() where c.x < 0 || c.y < 0 || c.x > imageSize.x || c.y > imageSize.y {
        throw .invalidInput(
          field: "corners[\(i)]",
          reason: "(\(c.x), \(c.y)) is outside the \(imageSize.x)×\(imageSize.y) image")
      }
    }
    // Repeated or collinear corners; a quadrilateral that is not convex cannot be a square's image.
    let scale = max(1, corners.map { $0.length }.max() ?? 1)
    var signs: [Double] = []
    for i in 0..<4 {
      let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
      if (b - a).length <= 1e-9 * scale { throw .degenerate("corners \(i) and \((i + 1) % 4) coincide") }
      let cross = (b - a).x * (c - b).y - (b - a).y * (c - b).x
      if abs(cross) <= 1e-9 * scale * scale {
        throw .degenerate("corners \(i), \((i + 1) % 4) and \((i + 2) % 4) are collinear")
      }
      signs.append(cross)
    }
    // Two turns each way means the outline crosses itself: corners given in the wrong order.
    // Pixel noise can fold a marker seen nearly edge-on or only a few pixels wide (some turn
    // spans under 25 px², a 5×5-pixel parallelogram), so that case is still solved: its
    // reprojection error and covariance say how little it is worth. A dent (one odd turn) too.
    let clearlyCrossed = signs.filter({ $0 > 0 }).count == 2 && signs.allSatisfy { abs($0) >= 25 }
    guard !clearlyCrossed else {
      throw .degenerate(
        "the corners' outline crosses itself: expected top-left, top-right, bottom-right, bottom-left")
    }
    let solutions = try PlanarPose.solve(
      targetPoints: Self.corners(size: size), imagePoints: corners, intrinsics: k, pixelSigma: pixelSigma)
    // A marker must be in front of the camera; a solution behind it is not a pose.
    let valid = solutions.filter { s in
      Self.corners(size: size).allSatisfy { s.cameraFromTarget.transformPoint(SIMD3($0.x, $0.y, 0)).z > 0 }
    }
    guard let best = valid.first else { throw .degenerate("no pose puts the marker in front of the camera") }
    let threshold = max(MarkerPose.ambiguityFloor, best.reprojectionError * MarkerPose.ambiguityRatio)
    let ambiguous = valid.count > 1 && valid[1].reprojectionError <= threshold
    return MarkerPose(solutions: valid, ambiguous: ambiguous)
  }
}
