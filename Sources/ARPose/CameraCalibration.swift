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
  /// `fx, fy, cx, cy` in pixels; NaN for a value held (``fixed``) or that the views do not
  /// determine (``undetermined`` says why).
  public var intrinsicsSigma: SIMD4<Double>
  /// One-σ of `k1, k2, p1, p2, k3`; NaN where held or not determined.
  public var distortionSigma: [Double]
  /// The parameters held, each with why: asked for, or chosen because the views did not
  /// determine the camera without it.
  public var fixed: [CalibrationConstraint: String]
  /// Why a σ is NaN, by parameter name (`fx` … `k3`): held, or the views' information matrix
  /// is singular.
  public var undetermined: [String: String]

  /// The camera parameters' names, in the solver's order.
  static let parameterNames = ["fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"]

  /// Calibrates from `views` of images `width` × `height` pixels, holding the parameters in
  /// `fixing`; with `automatic`, also the next of ``CalibrationConstraint``'s order (k3, the
  /// principal point, the aspect ratio) for as long as the views leave the camera undetermined:
  /// its normal matrix singular, a focal length's σ over a tenth of it, the principal point's
  /// over an eighth of the image, or the solution outside the bounds a real camera keeps
  /// (focal lengths from a twentieth of the image's longer side to 50 times it, the principal
  /// point inside the image, finite coefficients).
  ///
  /// - Throws: ``PoseError`` with fewer than two views, a view with fewer than 4 points or
  ///   points in a line, or when no solution within those bounds is found.
  public static func calibrate(
    views: [View], width: Int, height: Int, fixing: Set<CalibrationConstraint> = [], automatic: Bool = true
  ) throws(PoseError) -> CameraCalibration {
    guard views.count >= 2 else {
      throw .degenerate("calibration needs at least two views of the board, got \(views.count)")
    }
    for (i, view) in views.enumerated()
    where view.boardPoints.count < 4 || view.boardPoints.count != view.imagePoints.count {
      throw .degenerate(
        "view \(i + 1) has \(min(view.boardPoints.count, view.imagePoints.count)) points; at least 4 are needed"
      )
    }
    var fixed = Dictionary(uniqueKeysWithValues: fixing.map { ($0, "asked for") })
    while true {
      let parameters = CalibrationParameters(
        fixed: Set(fixed.keys), centre: SIMD2(Double(width), Double(height)) / 2)
      var calibration: CameraCalibration?, problem: String
      do {
        let solved = try solve(views, parameters: parameters, width: width, height: height)
        problem = solved.weakness(width: width, height: height) ?? ""
        calibration = solved
      } catch { problem = error.description }
      let next = CalibrationConstraint.allCases.first { fixed[$0] == nil }
      if problem.isEmpty || !automatic || next == nil {
        guard var calibration, calibration.outOfBounds(width: width, height: height) == nil else {
          throw .degenerate("no camera within bounds fits the views: \(problem)")
        }
        calibration.fixed = fixed
        return calibration
      }
      fixed[next!] = "the \(views.count) views do not determine the camera without it: \(problem)"
    }
  }

  /// Why the views leave this solution undetermined, or nil: out of bounds, a singular normal
  /// matrix, or a focal length or principal point known too loosely.
  func weakness(width: Int, height: Int) -> String? {
    if let outside = outOfBounds(width: width, height: height) { return outside }
    if let singular = undetermined.first(where: { !$0.value.hasPrefix("held") }) {
      return "\(singular.key): \(singular.value)"
    }
    let k = intrinsics, σ = intrinsicsSigma
    for (name, value, sigma, limit) in [
      ("fx", k.fx, σ.x, 0.1 * k.fx), ("fy", k.fy, σ.y, 0.1 * k.fy),
      ("cx", k.cx, σ.z, Double(width) / 8), ("cy", k.cy, σ.w, Double(height) / 8),
    ] where sigma > limit {
      return "\(name) \(Self.rounded(value)) ± \(Self.rounded(sigma)) px"
    }
    return nil
  }

  /// Why this solution is not a real camera's, or nil.
  func outOfBounds(width: Int, height: Int) -> String? {
    let k = intrinsics, side = Double(Swift.max(width, height))
    for (name, f) in [("fx", k.fx), ("fy", k.fy)] where !(f >= side / 20 && f <= 50 * side) {
      return "\(name) \(Self.rounded(f)) px is outside \(Self.rounded(side / 20))…\(Self.rounded(50 * side))"
    }
    guard k.cx >= 0, k.cx <= Double(width), k.cy >= 0, k.cy <= Double(height) else {
      return "the principal point (\(Self.rounded(k.cx)), \(Self.rounded(k.cy))) is outside the image"
    }
    guard lens.opencvCoefficients.values.allSatisfy(\.isFinite), rmsPixels.isFinite else {
      return "the lens coefficients are not finite"
    }
    return nil
  }

  static func rounded(_ x: Double) -> String { String(format: "%.4g", x) }

  /// One Levenberg–Marquardt solve from Zhang's initialisation, `parameters` held as they say.
  private static func solve(
    _ views: [View], parameters: CalibrationParameters, width: Int, height: Int
  ) throws(PoseError) -> CameraCalibration {
    let centre = parameters.centre
    let focal = try initialFocalLengths(views, centre: centre)
    var x = parameters.initial(focal: focal)
    let camera = parameters.camera(x)
    for view in views {
      let k = Pinhole(fx: camera[0], fy: camera[1], cx: centre.x, cy: centre.y)
      let normalised = view.imagePoints.map(k.normalized)
      let pose = try Homography.estimate(from: view.boardPoints, to: normalised).planePose()
      x += rotationVector(pose.rotation) + [pose.translation.x, pose.translation.y, pose.translation.z]
    }
    let problem = CalibrationResiduals(views: views, parameters: parameters)
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
      // The columns' orthogonality, and their equal length as the orthogonality of their sum
      // and difference (taken before any scaling); each vector scaled to unit length only to
      // weigh the equations alike.
      let (h0, h1) = (h.columns.0, h.columns.1)
      let (c0, c1) = (h0 / h0.length, h1 / h1.length)
      var (sum, difference) = (h0 + h1, h0 - h1)
      sum /= sum.length
      difference /= difference.length
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
    let (sigma, undetermined) = sigmas(solution, residuals: residuals, parameters: problem.parameters)
    let camera = problem.parameters.camera(x)
    guard camera[0] > 0, camera[1] > 0 else {
      throw .degenerate("the calibration gave a non-positive focal length")
    }
    return CameraCalibration(
      intrinsics: CameraIntrinsics(
        fx: camera[0], fy: camera[1], cx: camera[2], cy: camera[3], width: width, height: height),
      lens: .radialTangential(
        k1: camera[4], k2: camera[5], p1: camera[6], p2: camera[7], k3: camera[8], k4: 0, k5: 0, k6: 0),
      rmsPixels: rms, views: views, intrinsicsSigma: SIMD4(sigma[0], sigma[1], sigma[2], sigma[3]),
      distortionSigma: Array(sigma[4...]), fixed: [:], undetermined: undetermined)
  }

  /// The nine camera values' σ from `σ² (JᵀJ)⁻¹`, σ² the residuals' variance (OpenCV's
  /// `stdDeviationsIntrinsics`), NaN where held or where the normal matrix is singular, with
  /// why by name.
  private static func sigmas(
    _ solution: LevenbergMarquardt<Double>.Solution<[Double]>, residuals: [Double],
    parameters: CalibrationParameters
  ) -> (sigma: [Double], undetermined: [String: String]) {
    let freedom = Swift.max(1, residuals.count - solution.parameters.count)
    let variance = residuals.map { $0 * $0 }.reduce(0, +) / Double(freedom)
    var sigma = [Double](repeating: .nan, count: parameterNames.count)
    var undetermined: [String: String] = [:]
    let factor = Cholesky(solution.normalMatrix)
    let inverse = factor?.inverse
    for (slot, index) in parameters.free.enumerated() {
      let value = inverse.map { (variance * $0[slot, slot]).squareRoot() } ?? .nan
      if value.isFinite {
        sigma[index] = value
      } else {
        undetermined[parameterNames[index]] = "the views' information matrix is singular"
      }
    }
    // Square pixels make fy fx, with its σ.
    if parameters.fixed.contains(.fixAspectRatio) { sigma[1] = sigma[0] }
    if parameters.fixed.contains(.fixK3) { undetermined["k3"] = "held (fix_k3)" }
    if parameters.fixed.contains(.fixPrincipalPoint) {
      for name in ["cx", "cy"] { undetermined[name] = "held (fix_principal_point)" }
    }
    return (sigma, undetermined)
  }
}
