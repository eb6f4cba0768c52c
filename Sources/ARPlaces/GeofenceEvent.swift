import ARGeo

/// What happened at a fence.
public struct GeofenceEvent: Encodable, Sendable, Equatable {
  /// What happened: the fix entered, left, or stayed inside the fence for the dwell time.
  public enum Kind: String, Encodable, Sendable {
    /// The fix is inside the fence, the one before it was not.
    case enter
    /// The fix is outside the fence, the one before it was inside.
    case exit
    /// The fixes have been inside for the dwell time.
    case dwell
  }
  /// The fence.
  public var id: String
  /// The fence's name, if it has one.
  public var name: String?
  /// What happened.
  public var kind: Kind
  /// The fix that decided it: seconds since 1970, and where it was.
  public var time: Double
  /// The fix's position, degrees (WGS84).
  public var latitude: Double, longitude: Double
  /// How far that fix was outside the fence's boundary, metres (negative inside).
  public var distanceMetres: Double

  /// An event with these fields.
  public init(
    id: String, name: String?, kind: Kind, time: Double, latitude: Double, longitude: Double,
    distanceMetres: Double
  ) {
    self.id = id
    self.name = name
    self.kind = kind
    self.time = time
    self.latitude = latitude
    self.longitude = longitude
    self.distanceMetres = distanceMetres
  }

  enum CodingKeys: String, CodingKey {
    case id, name, kind = "event", time, latitude, longitude
    case distanceMetres = "distance_m"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(kind, forKey: .kind)
    try c.encode(time, forKey: .time)
    try c.encode(latitude, forKey: .latitude)
    try c.encode(longitude, forKey: .longitude)
    try c.encode(distanceMetres, forKey: .distanceMetres)
  }
}
