import ARMath
import RealModule

/// The geomagnetic field at a point: north, east and down components and the derived angles.
public struct MagneticField: Hashable, Sendable {
  /// Northward component X, nanotesla (along the geodetic meridian).
  public var north: Double
  /// Eastward component Y, nanotesla.
  public var east: Double
  /// Downward component Z, nanotesla (along the ellipsoid normal).
  public var down: Double
  /// Horizontal intensity H = √(X² + Y²), nanotesla.
  public var horizontalIntensity: Double { (north * north + east * east).squareRoot() }
  /// Total intensity F, nanotesla.
  public var totalIntensity: Double { (north * north + east * east + down * down).squareRoot() }
  /// Declination D, the angle from true north to magnetic north, east positive:
  /// true heading = magnetic heading + declination.
  public var declination: Angle<Double> { Angle(radians: Double.atan2(y: east, x: north)) }
  /// Inclination (dip) I, positive downwards.
  public var inclination: Angle<Double> { Angle(radians: Double.atan2(y: down, x: horizontalIntensity)) }
}
