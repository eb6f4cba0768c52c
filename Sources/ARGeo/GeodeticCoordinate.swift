/// A position given by geodetic latitude, longitude and ellipsoidal height, as GPS reports it.
///
/// Angles are kept in degrees, as every GPS source and file gives them, because the degree to
/// radian conversion is not exact and reducing in degrees keeps the poles and the antimeridian
/// exact. Heights are metres above the ellipsoid (WGS84 unless stated), not above mean sea level.
public struct GeodeticCoordinate: Hashable, Sendable, Codable {
  /// Geodetic latitude in degrees, −90…90, north positive.
  public var latitudeDegrees: Double
  /// Longitude in degrees, east positive; any value is accepted and means the same as its
  /// wrap into (−180, 180].
  public var longitudeDegrees: Double
  /// Height above the ellipsoid, metres.
  public var height: Double

  /// A coordinate; no validation (see ``validated()``).
  public init(latitudeDegrees: Double, longitudeDegrees: Double, height: Double = 0) {
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.height = height
  }

  /// The largest height `validated()` accepts, metres either side of the ellipsoid: beyond the
  /// orbits of navigation and geostationary satellites, and small enough that distances from it
  /// stay exact to a millimetre in `Double`.
  public static let heightLimit = 100_000_000.0

  /// The coordinate if all fields are finite, the latitude within ±90° and the height within
  /// ±``heightLimit``.
  public func validated() throws(GeoError) -> GeodeticCoordinate {
    guard latitudeDegrees.isFinite, abs(latitudeDegrees) <= 90 else {
      throw .invalidCoordinate(
        field: "latitude", value: latitudeDegrees, reason: "must be finite and within ±90°")
    }
    guard longitudeDegrees.isFinite else {
      throw .invalidCoordinate(field: "longitude", value: longitudeDegrees, reason: "must be finite")
    }
    guard height.isFinite, abs(height) <= Self.heightLimit else {
      throw .invalidCoordinate(
        field: "height", value: height, reason: "must be finite and within ±100,000 km")
    }
    return self
  }

  private enum CodingKeys: String, CodingKey {
    case latitudeDegrees = "latitude", longitudeDegrees = "longitude", height
  }
}
