import ARGeo

/// A place people are pointed to: a point of interest of a travel app, a numbered stop of a site
/// guide, a cache of the visit game.
public struct PointOfInterest: Sendable, Equatable {
  /// The place's identifier, unique within its set (a GeoJSON feature's `id`, else its
  /// `properties.id`; a site guide's `id`).
  public var id: String
  /// What it is called (`properties.name`; a site guide's `name`).
  public var name: String?
  /// A short label a map shows on it (a site guide's stop number, `label`).
  public var label: String?
  /// Where it is: WGS84 degrees, metres above the ellipsoid (0 when the file gives none).
  public var coordinate: GeodeticCoordinate
  /// Whether it is a stop of the visit game (a site guide's `hasGeoGame`).
  public var inGame: Bool

  /// A place with these fields.
  public init(
    id: String, name: String? = nil, label: String? = nil, coordinate: GeodeticCoordinate,
    inGame: Bool = false
  ) {
    self.id = id
    self.name = name
    self.label = label
    self.coordinate = coordinate
    self.inGame = inGame
  }
}
