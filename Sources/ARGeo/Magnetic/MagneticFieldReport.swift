/// The magnetic field at a place and date, as `arscene geo declination --json` prints it:
/// `model`, `declination_deg` and `inclination_deg` (degrees; declination east positive,
/// inclination down positive), `north_nt`, `east_nt`, `down_nt` and `total_nt` (nanotesla, in
/// the geodetic north/east/down frame) and `decimal_year`.
public struct MagneticFieldReport: Encodable, Sendable, Hashable {
  /// The model's name, e.g. `WMM-2025`.
  public var model: String
  /// The date, as a decimal year.
  public var decimalYear: Double
  /// The field.
  public var field: MagneticField

  /// The field `model` gives at `position` on `decimalYear`.
  ///
  /// - Throws: ``GeoError`` for an invalid position or a date outside the model's validity.
  public init(_ model: MagneticModel, at position: GeodeticCoordinate, decimalYear: Double) throws(GeoError) {
    self.model = model.name
    self.decimalYear = decimalYear
    field = try model.field(at: position, decimalYear: decimalYear)
  }

  private enum Keys: String, CodingKey {
    case model
    case declination = "declination_deg", inclination = "inclination_deg"
    case north = "north_nt", east = "east_nt", down = "down_nt", total = "total_nt"
    case decimalYear = "decimal_year"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(model, forKey: .model)
    try c.encode(field.declination.degrees, forKey: .declination)
    try c.encode(field.inclination.degrees, forKey: .inclination)
    try c.encode(field.north, forKey: .north)
    try c.encode(field.east, forKey: .east)
    try c.encode(field.down, forKey: .down)
    try c.encode(field.totalIntensity, forKey: .total)
    try c.encode(decimalYear, forKey: .decimalYear)
  }
}
