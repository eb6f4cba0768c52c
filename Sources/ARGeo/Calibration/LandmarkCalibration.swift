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

/// What a landmark sighting tells.
public struct LandmarkCalibration: Hashable, Sendable {
  /// True bearing from the observer to the landmark (the azimuth in the observer's ENU frame).
  public var trueBearing: Angle<Double>
  /// Horizontal distance to the landmark, metres.
  public var distance: Double
  /// The session yaw that makes the sighted direction point at the landmark (see
  /// ``SessionAlignment/yaw``).
  public var sessionYaw: Angle<Double>
  /// The compass bias (reading + declination − truth), when a compass heading was given.
  public var compassBias: Angle<Double>?
  /// 1-σ uncertainty of the yaw and of the bias: aiming error and the observer's position error
  /// seen from the landmark's distance.
  public var sigma: Angle<Double>

  /// Calibrates from `sighting`; `declination` makes the compass reading true.
  public init(_ sighting: LandmarkSighting, declination: Angle<Double> = .zero) throws(GeoError) {
    let frame = try LocalTangentFrame(origin: sighting.observer)
    let v = frame.enu(try sighting.landmark.validated())
    distance = (v.x * v.x + v.y * v.y).squareRoot()
    guard distance > 0 else { throw .degenerate("the landmark is straight above or below the observer") }
    guard let sessionHeading = WorldFrame.heading(ofWorldDirection: sighting.sessionDirection) else {
      throw .degenerate("the sighting direction is vertical or not finite")
    }
    let bearing = Angle<Double>(radians: Double.atan2(y: v.x, x: v.y)).wrappedToZeroTwoPi
    trueBearing = bearing
    sessionYaw = (bearing - sessionHeading).wrappedToZeroTwoPi
    compassBias = sighting.compassHeading.map { ($0 + declination - bearing).wrappedToPlusMinusPi }
    let positionAngle = Double.atan(sighting.observerSigma / distance)
    sigma = Angle(
      radians: (sighting.aimingSigma.radians * sighting.aimingSigma.radians + positionAngle * positionAngle)
        .squareRoot())
  }
}
