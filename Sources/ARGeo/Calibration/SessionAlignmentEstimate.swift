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
  /// How far the fixes' session positions spread: the diagonal of their bounding box in the
  /// session's horizontal plane, metres. A track shorter than its fixes' accuracy
  /// (``fixRadius68``) cannot see a yaw, whatever ``yawSigma`` says.
  public var trackExtent: Double = 0
  /// The fixes' horizontal accuracy as a 68% radius, metres: the root mean square of each fix's
  /// (its per-axis σ × 1.5096, the 68% radius of a circular normal error).
  public var fixRadius68: Double = 0
  /// What the yaw came from.
  public var yawSource: SessionYawSource = .gpsTrack

  /// Whether the GPS track is long enough to see a yaw: its extent at least its fixes' 68%
  /// radius. A shorter one contributes no yaw to a fused alignment.
  public var gpsSeesYaw: Bool { trackExtent >= fixRadius68 }

  /// 1-σ horizontal uncertainty, metres per axis, of the ENU position the alignment gives a
  /// session point: the centroid's, and the yaw's over the point's distance from the centroid.
  public func horizontalSigma(atSessionPoint p: SIMD3<Double>) -> Double {
    let lever = (SIMD2(p.x, -p.z) - sessionCentroid).length
    return (centroidSigma * centroidSigma + yawSigma.radians * yawSigma.radians * lever * lever).squareRoot()
  }
}
