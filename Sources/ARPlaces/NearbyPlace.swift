/// A place near a position as `arscene poi near` prints it: one JSON line a place.
public struct NearbyPlace: Encodable, Sendable, Equatable {
  /// The place's identifier.
  public var id: String
  /// Its name, `null` when it has none.
  public var name: String?
  /// Geodesic distance from the position, metres.
  public var distanceMetres: Double
  /// Initial bearing from the position towards it, degrees clockwise from north, [0, 360).
  public var bearingDegrees: Double

  /// The report of `match`, with the place's fields from `index`.
  public init(_ match: PlaceIndex.Match, in index: PlaceIndex) {
    let place = index.places[match.index]
    id = place.id
    name = place.name
    distanceMetres = match.distance
    bearingDegrees = match.bearing
  }

  enum CodingKeys: String, CodingKey {
    case id, name
    case distanceMetres = "distance_m"
    case bearingDegrees = "bearing_deg"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)  // null rather than absent: every line has the four keys
    try c.encode(distanceMetres, forKey: .distanceMetres)
    try c.encode(bearingDegrees, forKey: .bearingDegrees)
  }
}
