import RealModule

/// The shortest path between two points on an ellipsoid, and its ends' azimuths.
public struct GeodesicLine: Hashable, Sendable {
  /// Length along the ellipsoid surface, metres.
  public var distance: Double
  /// Azimuth at the first point, degrees clockwise from north, (−180, 180].
  public var initialBearingDegrees: Double
  /// Azimuth at the second point (the direction of travel on arrival), degrees, (−180, 180].
  public var finalBearingDegrees: Double
}
