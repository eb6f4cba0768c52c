import ARMath

/// A session alignment with its 1-σ uncertainty.
public struct SessionAlignmentEstimate: Hashable, Sendable {
  /// The estimated alignment of the session frame to ENU.
  public var alignment: SessionAlignment
  /// 1-σ uncertainty of the yaw.
  public var yawSigma: Angle<Double>
  /// 1-σ horizontal uncertainty of the session origin's ENU position, metres per axis.
  public var horizontalSigma: Double
  /// 1-σ uncertainty of the vertical offset, metres.
  public var verticalSigma: Double
  /// Fixes used (outliers excluded).
  public var fixCount: Int
  /// Σ (residual / accuracy)² over the fixes used: about 2n − 3 when the accuracies are honest.
  public var chiSquared: Double
  /// Indices (into the input) of fixes rejected as outliers; empty for the online estimator's
  /// snapshot, which reports ``OnlineSessionAligner/rejectedCount`` instead.
  public var outlierIndices: [Int] = []
}
