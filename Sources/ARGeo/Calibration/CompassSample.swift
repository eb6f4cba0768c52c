import ARMath
import RealModule

/// One compass reading with the device's forward direction at that moment.
public struct CompassSample: Hashable, Sendable {
  /// The compass heading as the device reported it (clockwise from north); magnetic or true,
  /// as ``CompassBiasEstimator/estimate(_:alignment:declination:yawSigma:)`` is told.
  public var heading: Angle<Double>
  /// The direction the compass heading refers to (the device's forward axis) in session world
  /// coordinates; need not be unit length, must not be vertical.
  public var sessionDirection: SIMD3<Double>

  /// A sample.
  public init(heading: Angle<Double>, sessionDirection: SIMD3<Double>) {
    self.heading = heading
    self.sessionDirection = sessionDirection
  }
}
