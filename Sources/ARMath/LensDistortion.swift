import RealModule

/// A lens's distortion as OpenCV models it, on normalized image coordinates (`x = X/Z`,
/// `y = Y/Z` in the OpenCV camera frame: x right, y down): ideal pinhole coordinates map to
/// where the lens puts them (``distort(_:)``) and back (``undistort(_:)``). Pixels follow with
/// the intrinsics: `u = fx·x' + cx`, `v = fy·y' + cy` (see ``Pinhole/distortedPixel(_:lens:)``).
public enum LensDistortion: Hashable, Sendable {
  /// A pinhole: no distortion (ARKit's frames).
  case none
  /// OpenCV's radial-tangential (Brown–Conrady) model with its rational extension: radial
  /// `(1 + k1·r² + k2·r⁴ + k3·r⁶) / (1 + k4·r² + k5·r⁴ + k6·r⁶)`, tangential `p1`, `p2`
  /// (`cv2.projectPoints` with `[k1, k2, p1, p2, k3, k4, k5, k6]`; five coefficients leave k4–k6
  /// zero).
  case radialTangential(
    k1: Double, k2: Double, p1: Double, p2: Double, k3: Double, k4: Double, k5: Double, k6: Double)
  /// The Kannala–Brandt equidistant fisheye model of `cv2.fisheye`: the angle θ from the axis
  /// becomes `θ·(1 + k1·θ² + k2·θ⁴ + k3·θ⁶ + k4·θ⁸)` on the image.
  case fisheye(k1: Double, k2: Double, k3: Double, k4: Double)

  /// A model from OpenCV's coefficient list: 4, 5 or 8 numbers `k1, k2, p1, p2[, k3[, k4, k5,
  /// k6]]` (all zero is ``none``), or with `fisheye` exactly 4, `k1, k2, k3, k4` (all zero is
  /// the equidistant projection, not a pinhole).
  ///
  /// - Throws: ``LensDistortionError`` when the count is not one of these or a number is not
  ///   finite.
  public init(opencv coefficients: [Double], fisheye: Bool = false) throws(LensDistortionError) {
    guard coefficients.allSatisfy(\.isFinite) else { throw .notFinite }
    let c = coefficients
    if fisheye {
      guard c.count == 4 else { throw .count(c.count, fisheye: true) }
      self = .fisheye(k1: c[0], k2: c[1], k3: c[2], k4: c[3])
    } else {
      guard [4, 5, 8].contains(c.count) else { throw .count(c.count, fisheye: false) }
      let k = c + [Double](repeating: 0, count: 8 - c.count)
      guard c.contains(where: { $0 != 0 }) else {
        self = .none
        return
      }
      self = .radialTangential(k1: k[0], k2: k[1], p1: k[2], p2: k[3], k3: k[4], k4: k[5], k5: k[6], k6: k[7])
    }
  }

  /// OpenCV's coefficient list of the model, as ``init(opencv:fisheye:)`` takes it: five
  /// radial-tangential coefficients (eight when k4–k6 are used), four fisheye ones, none for a
  /// pinhole.
  public var opencvCoefficients: (values: [Double], fisheye: Bool) {
    switch self {
    case .none: return ([], false)
    case .radialTangential(let k1, let k2, let p1, let p2, let k3, let k4, let k5, let k6):
      let rational = k4 != 0 || k5 != 0 || k6 != 0
      return (rational ? [k1, k2, p1, p2, k3, k4, k5, k6] : [k1, k2, p1, p2, k3], false)
    case .fisheye(let k1, let k2, let k3, let k4): return ([k1, k2, k3, k4], true)
    }
  }

  /// Where the lens puts the ideal normalized point `p` (`x = X/Z`, `y = Y/Z`, Z > 0).
  public func distort(_ p: SIMD2<Double>) -> SIMD2<Double> {
    switch self {
    case .none: return p
    case .radialTangential(let k1, let k2, let p1, let p2, let k3, let k4, let k5, let k6):
      let (x, y) = (p.x, p.y)
      let r2 = x * x + y * y
      let radial =
        (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
      return SIMD2(
        x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x),
        y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y)
    case .fisheye:
      let r = (p * p).sum().squareRoot()
      guard r > 0 else { return p }
      return p * (fisheyeRadius(Double.atan(r)) / r)
    }
  }

  /// The ideal normalized point the lens put at `d`: the exact inverse of ``distort(_:)``
  /// (Newton's method to the last bits), or nil where there is none (beyond the model's fold,
  /// where the distortion stops growing with the radius).
  ///
  /// OpenCV's `cv2.undistortPoints` stops after five fixed-point iterations; this equals
  /// `cv2.undistortPointsIter` run to convergence.
  public func undistort(_ d: SIMD2<Double>) -> SIMD2<Double>? {
    switch self {
    case .none: return d
    case .radialTangential:
      var p = d
      for _ in 0..<100 {
        let residual = distort(p) - d
        if (residual * residual).sum() <= 1e-30 * Swift.max(1, (d * d).sum()) { return p }
        // The Jacobian by central differences: the model is smooth, and 1e-7 steps keep ten
        // digits, which Newton's last steps square away.
        let h = 1e-7 * Swift.max(1, (p * p).sum().squareRoot())
        let dx = (distort(p + SIMD2(h, 0)) - distort(p - SIMD2(h, 0))) / (2 * h)
        let dy = (distort(p + SIMD2(0, h)) - distort(p - SIMD2(0, h))) / (2 * h)
        let det = dx.x * dy.y - dy.x * dx.y
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let step = SIMD2(dy.y * residual.x - dy.x * residual.y, -dx.y * residual.x + dx.x * residual.y) / det
        p -= step
        guard p.x.isFinite, p.y.isFinite else { return nil }
        if (step * step).sum() <= 1e-32 * Swift.max(1, (p * p).sum()) {
          let left = distort(p) - d
          return (left * left).sum() <= 1e-20 * Swift.max(1, (d * d).sum()) ? p : nil
        }
      }
      return nil
    case .fisheye:
      let rd = (d * d).sum().squareRoot()
      guard rd > 0 else { return d }
      guard let theta = fisheyeAngle(forRadius: rd) else { return nil }
      return d * (Double.tan(theta) / rd)
    }
  }

  /// `θ·(1 + k1·θ² + k2·θ⁴ + k3·θ⁶ + k4·θ⁸)`.
  private func fisheyeRadius(_ theta: Double) -> Double {
    guard case .fisheye(let k1, let k2, let k3, let k4) = self else { return theta }
    let t2 = theta * theta
    return theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
  }

  /// The angle θ in [0, π/2) whose image radius is `rd`, by Newton's method; nil past the fold.
  private func fisheyeAngle(forRadius rd: Double) -> Double? {
    guard case .fisheye(let k1, let k2, let k3, let k4) = self else { return nil }
    var theta = Swift.min(rd, 1.5)
    for _ in 0..<100 {
      let t2 = theta * theta
      let f = fisheyeRadius(theta) - rd
      let slope = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)))
      guard slope > 0, slope.isFinite else { return nil }
      let step = f / slope
      theta -= step
      guard theta >= 0, theta < .pi / 2 else { return nil }
      if abs(step) <= 1e-16 * Swift.max(1, theta) { return theta }
    }
    return abs(fisheyeRadius(theta) - rd) <= 1e-12 * Swift.max(1, rd) ? theta : nil
  }
}

/// Why distortion coefficients are refused.
public enum LensDistortionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The wrong number of coefficients for the model.
  case count(Int, fisheye: Bool)
  /// A coefficient is NaN or infinite.
  case notFinite

  public var description: String {
    switch self {
    case .count(let n, let fisheye):
      fisheye
        ? "\(n) fisheye coefficients; give 4: k1,k2,k3,k4"
        : "\(n) coefficients; give 4, 5 or 8: k1,k2,p1,p2[,k3[,k4,k5,k6]] (OpenCV's order)"
    case .notFinite: "a coefficient is not a finite number"
    }
  }
}
