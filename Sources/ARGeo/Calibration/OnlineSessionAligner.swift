import ARMath

/// The session alignment updated fix by fix, as an app runs it: O(1) per fix, the same answer
/// as ``SessionAligner/estimate(_:)`` on the accepted fixes. A fix whose residual exceeds
/// ``SessionAligner/outlierThreshold`` σ of its predicted uncertainty is rejected once the
/// estimate is established (at least `warmUp` fixes).
public struct OnlineSessionAligner: Sendable {
  private var statistics = AlignmentStatistics()
  /// Fixes accepted before outlier gating starts.
  public let warmUp: Int
  /// Fixes rejected so far.
  public private(set) var rejectedCount = 0
  /// The current estimate; nil until two fixes with a horizontal lever arm have arrived.
  public private(set) var current: SessionAlignmentEstimate?

  /// An empty aligner.
  public init(warmUp: Int = 10) { self.warmUp = warmUp }

  /// Adds a fix; returns false if it was rejected as an outlier.
  @discardableResult
  public mutating func add(_ fix: PositionFix) throws(GeoError) -> Bool {
    let fix = try fix.validated(index: statistics.count + rejectedCount)
    if let estimate = current, statistics.count >= warmUp {
      let yaw = estimate.alignment.yaw
      let t = SIMD2(estimate.alignment.originENU.x, estimate.alignment.originENU.y)
      let predicted = rotateClockwise(fix.sessionEastNorth, sin: yaw.sin, cos: yaw.cos) + t
      // Residual σ: the fix's own plus the estimate's at this point.
      let lever = fix.sessionEastNorth.length
      let sigma =
        (fix.horizontalAccuracy * fix.horizontalAccuracy + estimate.horizontalSigma * estimate.horizontalSigma
        + (estimate.yawSigma.radians * lever) * (estimate.yawSigma.radians * lever)).squareRoot()
      if (predicted - fix.enuEastNorth).length > SessionAligner.outlierThreshold * sigma {
        rejectedCount += 1
        return false
      }
    }
    statistics.add(fix)
    current = statistics.solve() ?? current
    return true
  }
}
