import ARMath
import RealModule

/// The bias of a compass against the visually aligned session: bias = compass heading (made
/// true with the declination) − true heading of the same direction. Corrected heading =
/// reading − bias.
public struct CompassBias: Hashable, Sendable {
  /// The estimated bias (positive: the compass reads clockwise of the truth).
  public var bias: Angle<Double>
  /// 1-σ uncertainty of the bias, including the session yaw's uncertainty.
  public var sigma: Angle<Double>
  /// Samples used (after rejecting those more than 5 robust σ from the median).
  public var sampleCount: Int
  /// Circular standard deviation of the per-sample biases: the compass's own noise.
  public var scatter: Angle<Double>
}
