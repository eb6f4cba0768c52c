/// A camera parameter a board calibration can hold instead of estimating it, named as OpenCV's
/// `calibrateCamera` flags are: asked for, or chosen by ``CameraCalibration`` when the views
/// do not determine the camera without it.
public enum CalibrationConstraint: String, CaseIterable, Sendable, Comparable, Encodable {
  /// The sixth-order radial coefficient k3 held at 0 (`CALIB_FIX_K3`).
  case fixK3 = "fix_k3"
  /// The principal point held at the image's centre (`CALIB_FIX_PRINCIPAL_POINT`).
  case fixPrincipalPoint = "fix_principal_point"
  /// Square pixels: fy held equal to fx (`CALIB_FIX_ASPECT_RATIO` with a ratio of 1).
  case fixAspectRatio = "fix_aspect_ratio"

  /// The order in which the calibration holds parameters the views leave undetermined: the
  /// lens's highest-order term first (OpenCV's advice for ordinary lenses), the principal point
  /// next, the aspect ratio last.
  public static func < (a: Self, b: Self) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// Where the free camera parameters sit in a calibration's parameter vector, and the values of
/// the held ones: the nine camera values `fx, fy, cx, cy, k1, k2, p1, p2, k3` from the free
/// ones and the constraints.
struct CalibrationParameters {
  /// The parameters held.
  let fixed: Set<CalibrationConstraint>
  /// The image's centre, pixels: the principal point when it is held.
  let centre: SIMD2<Double>
  /// The camera values estimated, as indices into the nine, in the parameter vector's order.
  let free: [Int]

  init(fixed: Set<CalibrationConstraint>, centre: SIMD2<Double>) {
    self.fixed = fixed
    self.centre = centre
    var free = [0]
    if !fixed.contains(.fixAspectRatio) { free.append(1) }
    if !fixed.contains(.fixPrincipalPoint) { free += [2, 3] }
    free += [4, 5, 6, 7]
    if !fixed.contains(.fixK3) { free.append(8) }
    self.free = free
  }

  /// The number of camera parameters estimated (the views' poses follow them).
  var count: Int { free.count }

  /// The nine camera values at parameter vector `x`.
  func camera(_ x: [Double]) -> [Double] {
    var camera = [x[0], x[0], centre.x, centre.y, 0, 0, 0, 0, 0]
    for (slot, index) in free.enumerated() { camera[index] = x[slot] }
    if fixed.contains(.fixAspectRatio) { camera[1] = camera[0] }
    return camera
  }

  /// The free camera values of a camera with focal lengths `focal`, its principal point at the
  /// image's centre and no distortion (one focal length, their mean, for square pixels).
  func initial(focal: SIMD2<Double>) -> [Double] {
    let f = fixed.contains(.fixAspectRatio) ? SIMD2(repeating: (focal.x + focal.y) / 2) : focal
    let camera = [f.x, f.y, centre.x, centre.y, 0, 0, 0, 0, 0]
    return free.map { camera[$0] }
  }
}
