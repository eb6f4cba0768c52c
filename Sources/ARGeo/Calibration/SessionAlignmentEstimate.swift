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
  /// The weighted centroid of the fixes' session positions, as (x, −z) session metres: where
  /// the yaw's uncertainty adds nothing.
  public var sessionCentroid: SIMD2<Double> = .zero
  /// 1-σ horizontal uncertainty, metres per axis, of the ENU position of ``sessionCentroid``.
  public var centroidSigma: Double = 0
  /// Indices (into the input) of fixes rejected as outliers; empty for the online estimator's
  /// snapshot, which reports ``OnlineSessionAligner/rejectedCount`` instead.
  public var outlierIndices: [Int] = []

  /// 1-σ horizontal uncertainty, metres per axis, of the ENU position the alignment gives a
  /// session point: the centroid's, and the yaw's over the point's distance from the centroid.
  public func horizontalSigma(atSessionPoint p: SIMD3<Double>) -> Double {
    let lever = (SIMD2(p.x, -p.z) - sessionCentroid).length
    return (centroidSigma * centroidSigma + yawSigma.radians * yawSigma.radians * lever * lever).squareRoot()
  }
}
