import ARMath
import RealModule

/// A camera's intrinsics and lens distortion estimated from views of a planar board, as
/// OpenCV's `calibrateCamera` does: Zhang's initialisation (the principal point at the image's
/// centre, the focal lengths from the views' homographies, each view's pose from its
/// homography), then Levenberg–Marquardt over everything on the reprojection error, with
/// OpenCV's five-coefficient radial-tangential model `k1, k2, p1, p2, k3`.
///
/// Pixels follow ARScene's convention (centres at +0.5: OpenCV's principal point is ours
/// minus 0.5); board points are in the board's plane (x right, y down, metres), the camera
/// frame is OpenCV's (x right, y down, z forward).
public struct CameraCalibration: Sendable {
  /// One view of the board: its points (board plane, metres) and where they were seen (pixels).
  public struct View: Sendable {
    /// The board's points, in its plane, metres.
    public var boardPoints: [SIMD2<Double>]
    /// Where each was seen, pixels.
    public var imagePoints: [SIMD2<Double>]

    /// A view pairing `boardPoints` with `imagePoints`, one for one.
    public init(boardPoints: [SIMD2<Double>], imagePoints: [SIMD2<Double>]) {
      self.boardPoints = boardPoints
      self.imagePoints = imagePoints
    }
  }

  /// The focal lengths and principal point, pixels, for the views' image size.
  public var intrinsics: CameraIntrinsics<Double>
  /// The lens (radial-tangential, five coefficients).
  public var lens: LensDistortion
  /// The root-mean-square reprojection error over all points, pixels (OpenCV's `rms`).
  public var rmsPixels: Double
  /// Each view's board pose (`camera_from_board`, OpenCV camera frame, metres) and its own RMS
  /// reprojection error, pixels.
  public var views: [(cameraFromBoard: RigidTransform<Double>, rmsPixels: Double)]
  /// One-σ uncertainties from the covariance `σ²(JᵀJ)⁻¹` (σ² the residuals' variance):
  /// `fx, fy, cx, cy` in pixels and `k1, k2, p1, p2, k3`.
  public var intrinsicsSigma: SIMD4<Double>
  /// One-σ of `k1, k2, p1, p2, k3`.
  public var distortionSigma: [Double]

  /// The number of camera parameters estimated: fx, fy, cx, cy, k1, k2, p1, p2, k3.
  static let cameraParameters = 9

  /// Calibrates from `views` of images `width` × `height` pixels.
  ///
  /// - Throws: ``PoseError`` with fewer than two views, a view with fewer than 4 points or
  ///   points in a line, or a solve that does not converge to finite values.
  public static func calibrate(views: [View], width: Int, height: Int) throws(PoseError) -> CameraCalibration
  {
    guard views.count >= 2 else {
      throw .degenerate("calibration needs at least two views of the board, got \(views.count)")
    }
    for (i, view) in views.enumerated()
    where view.boardPoints.count < 4 || view.boardPoints.count != view.imagePoints.count {
      throw .degenerate(
        "view \(i + 1) has \(min(view.boardPoints.count, view.imagePoints.count)) points; at least 4 are needed"
      )
    }
    let centre = SIMD2(Double(width), Double(height)) / 2
    let focal = try initialFocalLengths(views, centre: centre)
    var x = [focal.x, focal.y, centre.x, centre.y, 0, 0, 0, 0, 0]
    for view in views {
      let k = Pinhole(fx: focal.x, fy: focal.y, cx: centre.x, cy: centre.y)
      let normalised = view.imagePoints.map(k.normalized)
      let pose = try Homography.estimate(from: view.boardPoints, to: normalised).planePose()
      x += rotationVector(pose.rotation) + [pose.translation.x, pose.translation.y, pose.translation.z]
    }
    let problem = CalibrationResiduals(views: views)
    let solver = LevenbergMarquardt<Double>(
      gradientTolerance: 1e-14, stepTolerance: 1e-14, costTolerance: 1e-16, maxIterations: 500)
    let solution = solver.minimize(from: x, residuals: problem.residuals, jacobian: problem.jacobian)
    guard solution.parameters.allSatisfy(\.isFinite), solution.termination != .numericalFailure else {
      throw .degenerate("the calibration did not converge (the views may not constrain the camera)")
    }
    return try result(solution, problem: problem, width: width, height: height)
  }

  /// The focal lengths by Zhang's constraints with the principal point at `centre` (OpenCV's
  /// `initIntrinsicParams2D`): each view's homography, centred, gives two equations linear in
  /// `1/fx²` and `1/fy²` (its first two columns orthogonal and of equal length through K⁻¹).
  static func initialFocalLengths(_ views: [View], centre: SIMD2<Double>) throws(PoseError) -> SIMD2<Double> {
    var rows: [[Double]] = [], right: [Double] = []
    for view in views {
      let h = try Homography.estimate(from: view.boardPoints, to: view.imagePoints.map { $0 - centre }).matrix
      var c0 = h.columns.0, c1 = h.columns.1
      c0 /= c0.length
      c1 /= c1.length
      let (sum, difference) = ((c0 + c1) / 2, (c0 - c1) / 2)
      rows.append([c0.x * c1.x, c0.y * c1.y])
      right.append(-c0.z * c1.z)
      rows.append([sum.x * difference.x, sum.y * difference.y])
      right.append(-sum.z * difference.z)
    }
    // The normal equations of the 2-unknown least squares.
    var a = SIMD4<Double>.zero, b = SIMD2<Double>.zero
    for (row, r) in zip(rows, right) {
      a += SIMD4(row[0] * row[0], row[0] * row[1], row[1] * row[0], row[1] * row[1])
      b += SIMD2(row[0] * r, row[1] * r)
    }
    let determinant = a.x * a.w - a.y * a.z
    let inverseSquares = SIMD2(a.w * b.x - a.y * b.y, a.x * b.y - a.z * b.x) / determinant
    let focal = SIMD2(1 / abs(inverseSquares.x).squareRoot(), 1 / abs(inverseSquares.y).squareRoot())
    guard focal.x.isFinite, focal.y.isFinite, focal.x > 0, focal.y > 0 else {
      throw .degenerate("the views' homographies do not determine the focal length (all views parallel?)")
    }
    return focal
  }

  /// A rotation as its axis times its angle, radians.
  static func rotationVector(_ q: Quaternion<Double>) -> [Double] {
    var q = q.normalized()
    if q.vector.w < 0 { q = Quaternion(vector: -q.vector) }
    let v = SIMD3(q.vector.x, q.vector.y, q.vector.z)
    let s = v.length
    guard s > 1e-300 else { return [0, 0, 0] }
    let angle = 2 * Double.atan2(y: s, x: q.vector.w)
    let r = v / s * angle
    return [r.x, r.y, r.z]
  }

  /// The rotation of axis-times-angle `r`.
  static func rotation(_ r: SIMD3<Double>) -> Quaternion<Double> {
    let angle = r.length
    guard angle > 1e-300 else { return .identity }
    return Quaternion(angle: Angle(radians: angle), axis: r / angle)
  }

  /// The calibration the solution holds, with its RMS errors and covariance.
  private static func result(
    _ solution: LevenbergMarquardt<Double>.Solution<[Double]>, problem: CalibrationResiduals, width: Int,
    height: Int
  ) throws(PoseError) -> CameraCalibration {
    let x = solution.parameters
    let residuals = problem.residuals(x)
    let count = residuals.count / 2
    let rms = (residuals.map { $0 * $0 }.reduce(0, +) / Double(count)).squareRoot()
    var views: [(RigidTransform<Double>, Double)] = []
    var offset = 0
    for (v, view) in problem.views.enumerated() {
      let p = Array(problem.viewParameters(x, v))
      let pose = RigidTransform(
        rotation: rotation(SIMD3(p[0], p[1], p[2])), translation: SIMD3(p[3], p[4], p[5]))
      let n = view.boardPoints.count
      let squares = residuals[offset..<(offset + 2 * n)].map { $0 * $0 }.reduce(0, +)
      views.append((pose, (squares / Double(n)).squareRoot()))
      offset += 2 * n
    }
    // σ² (JᵀJ)⁻¹ with σ² the residuals' variance (OpenCV's stdDeviationsIntrinsics).
    let freedom = Swift.max(1, residuals.count - x.count)
    let variance = residuals.map { $0 * $0 }.reduce(0, +) / Double(freedom)
    var sigma = [Double](repeating: .nan, count: cameraParameters)
    if let factor = Cholesky(solution.normalMatrix) {
      let inverse = factor.inverse
      for i in 0..<cameraParameters { sigma[i] = (variance * inverse[i, i]).squareRoot() }
    }
    guard x[0] > 0, x[1] > 0 else { throw .degenerate("the calibration gave a non-positive focal length") }
    return CameraCalibration(
      intrinsics: CameraIntrinsics(fx: x[0], fy: x[1], cx: x[2], cy: x[3], width: width, height: height),
      lens: .radialTangential(k1: x[4], k2: x[5], p1: x[6], p2: x[7], k3: x[8], k4: 0, k5: 0, k6: 0),
      rmsPixels: rms, views: views, intrinsicsSigma: SIMD4(sigma[0], sigma[1], sigma[2], sigma[3]),
      distortionSigma: Array(sigma[4...]))
  }
}
