import ARMath
import RealModule

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
