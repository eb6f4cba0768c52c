import RealModule

/// The result of the direct problem: where a geodesic of a given length and start azimuth ends.
public struct GeodesicDestination: Hashable, Sendable {
  /// The end point (height is carried over from the start).
  public var coordinate: GeodeticCoordinate
  /// Azimuth of travel at the end point, degrees clockwise from north.
  public var finalBearingDegrees: Double
}
