import ARGeo
import ARMath
import RealModule

/// Where a session truly sat, from control points seen in its frames: the alignment (yaw about
/// gravity and translation, as `SessionAlignment` holds them) that best explains where the
/// control points appeared, with its covariance.
///
/// The fit minimises the reprojection errors of all sightings, each weighted by its σ (the
/// click's, widened by the survey's σ seen at the point's depth), over four parameters: the
/// session's yaw and its origin's east, north and up. It starts from the best of a 5° grid of
/// yaws, each with the translation that brings every sighting's viewing ray closest to its
/// point (linear least squares), so it needs no prior; Gauss–Newton with Huber weights
/// (k = 2σ) then converges, sightings more than 4σ off (a wrong click: 4σ is the 99.97% point of
/// a 2-D Gaussian) are left out, and a plain least-squares fit on the rest gives the result. The
/// covariance is the inverse normal matrix, scaled up by the residuals' χ² per degree of freedom
/// when that exceeds 1 (clicks worse than their σ claimed).
public struct ControlAlignmentFit: Sendable {
  /// Where the session frame sits in the site's ENU frame.
  public var alignment: SessionAlignment
  /// The covariance of (yaw in radians, origin east, north, up in metres), row-major 4×4.
  public var covariance: [Double]
  /// Sightings used, and those left out as more than 4σ off.
  public var used: Int, rejected: Int
  /// Distinct points (and marker corners) among the sightings used.
  public var points: Int
  /// The RMS reprojection error of the sightings used, pixels.
  public var rmsPixels: Double
  /// The times of the first and last sighting used, seconds.
  public var timeSpan: ClosedRange<Double>
  /// How far the camera moved in the session over the sightings used, metres.
  public var pathLength: Double

  /// The yaw's 1σ, radians.
  public var yawSigma: Double { covariance[0].squareRoot() }

  /// The covariance (metres²) of where a session point lands in the geographic world (x east,
  /// y up, z south), from this fit's uncertainty.
  public func worldCovariance(ofSessionPoint p: SIMD3<Double>) -> Matrix3<Double> {
    // ∂(R(ψ) p + t)/∂(ψ, e, n, u): the yaw's column is R'(ψ) p; east, north, up map to x, −z, y.
    let turned = alignment.geoWorldFromSession.rotation.act(p)
    // R(ψ) turns by −ψ about +Y; its derivative applied to p is (−z, 0, x) of the turned point.
    let dYaw = SIMD3(-turned.z, 0, turned.x)
    let columns: [SIMD3<Double>] = [dYaw, [1, 0, 0], [0, 0, -1], [0, 1, 0]]
    var c = Matrix3<Double>.zero
    for a in 0..<4 {
      for b in 0..<4 {
        let w = covariance[a * 4 + b]
        for r in 0..<3 { for s in 0..<3 { c[r, s] += columns[a][r] * w * columns[b][s] } }
      }
    }
    return c
  }

  /// The horizontal RMS radius (metres) of the fit's uncertainty at a session point.
  public func horizontalSigma(atSessionPoint p: SIMD3<Double>) -> Double {
    let c = worldCovariance(ofSessionPoint: p)
    return Swift.max(0, c[0, 0] + c[2, 2]).squareRoot()
  }

  /// The σ (horizontal RMS radius, metres) of the truth this fit gives at a session point `p`
  /// seen from a camera at `camera` (session metres), at one instant within the fit's span: the
  /// fit's own uncertainty, and the odometry's yaw drift within the span, which a fit of the
  /// whole span averages. The yaw drifts as a random walk of `yawDrift` radians a √metre
  /// walked; the span's mean differs from its middle by `yawDrift √(L / 6)` over a path of
  /// length L (half of it either side: a random walk's mean over a length ℓ has the variance of
  /// ℓ/3 of it), seen at the point's distance from the camera.
  public func truthSigma(atSessionPoint p: SIMD3<Double>, camera: SIMD3<Double>, yawDrift: Double) -> Double {
    let fitted = horizontalSigma(atSessionPoint: p)
    let reach = SIMD2(p.x - camera.x, p.z - camera.z).length
    let drift = yawDrift * (pathLength / 6).squareRoot() * reach
    return (fitted * fitted + drift * drift).squareRoot()
  }

  /// The fit of `sightings`; nil when they cannot fix all four parameters (fewer than three
  /// sightings of two distinct points left, or points all on one viewing ray).
  public static func fit(_ sightings: [ControlSighting], start: SessionAlignment? = nil)
    -> ControlAlignmentFit?
  {
    guard Self.distinctPoints(sightings) >= 2, sightings.count >= 3 else { return nil }
    var problem = ControlFitProblem(sightings: sightings)
    var theta = problem.bestStart(including: start)
    theta = problem.iterate(from: theta, huber: 2, iterations: 30)
    let inliers = problem.inliers(at: theta, within: 4)
    let kept = inliers.map { sightings[$0] }
    guard Self.distinctPoints(kept) >= 2, kept.count >= 3 else { return nil }
    problem = ControlFitProblem(sightings: kept)
    theta = problem.iterate(from: theta, huber: nil, iterations: 15)
    guard let normal = problem.normalMatrix(at: theta), let inverse = Cholesky(normal.matrix)?.inverse else {
      return nil
    }
    let dof = Double(Swift.max(1, 2 * kept.count - 4))
    let scale = Swift.max(1, normal.chiSquare / dof)
    let times = kept.map(\.observation.time)
    var path = 0.0
    for (a, b) in zip(kept, kept.dropFirst()) {
      path += (b.sessionFromCamera.translation - a.sessionFromCamera.translation).length
    }
    return ControlAlignmentFit(
      alignment: ControlFitProblem.alignment(theta), covariance: inverse.elements.map { $0 * scale },
      used: kept.count, rejected: sightings.count - kept.count, points: distinctPoints(kept),
      rmsPixels: normal.pixelRMS, timeSpan: times.min()!...times.max()!, pathLength: path)
  }

  static func distinctPoints(_ sightings: [ControlSighting]) -> Int {
    Set(sightings.map { "\($0.observation.name)#\($0.observation.corner ?? -1)" }).count
  }
}
