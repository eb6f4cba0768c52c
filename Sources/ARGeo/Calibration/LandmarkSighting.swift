import ARMath
import RealModule

/// Calibration from a known direction: the user stands at a known place and points the device
/// at a landmark with known coordinates (a church tower, a survey pillar). The true bearing to
/// the landmark against the session's (and the compass's) bearing of the same direction gives
/// the session yaw and the compass bias in one step.
public struct LandmarkSighting: Hashable, Sendable {
  /// Where the user stands.
  public var observer: GeodeticCoordinate
  /// What the user points at.
  public var landmark: GeodeticCoordinate
  /// The pointing direction (device forward axis) in session world coordinates.
  public var sessionDirection: SIMD3<Double>
  /// The compass heading read while pointing, if any (magnetic unless the declination is zero).
  public var compassHeading: Angle<Double>?
  /// 1-σ pointing error (how well a person aims a phone: about 1°).
  public var aimingSigma: Angle<Double>
  /// 1-σ horizontal position error of the observer, metres.
  public var observerSigma: Double

  /// A sighting.
  public init(
    observer: GeodeticCoordinate, landmark: GeodeticCoordinate, sessionDirection: SIMD3<Double>,
    compassHeading: Angle<Double>? = nil, aimingSigma: Angle<Double> = .degrees(1), observerSigma: Double = 3
  ) {
    self.observer = observer
    self.landmark = landmark
    self.sessionDirection = sessionDirection
    self.compassHeading = compassHeading
    self.aimingSigma = aimingSigma
    self.observerSigma = observerSigma
  }
}
