import ARFiles
import ARGeo
import Foundation

/// What a places file holds: points of interest, and the paths between them that a site map
/// draws.
public struct PlaceSet: Sendable, Equatable {
  /// The points of interest, in file order.
  public var places: [PointOfInterest]
  /// The paths (GeoJSON LineStrings and MultiLineStrings), in file order.
  public var paths: [PlacePath]
  /// The areas (GeoJSON Polygons and MultiPolygons: their outer rings), in file order: polygon
  /// geofences.
  public var areas: [PlaceArea]

  /// A set of these places, paths and areas.
  public init(places: [PointOfInterest] = [], paths: [PlacePath] = [], areas: [PlaceArea] = []) {
    self.places = places
    self.paths = paths
    self.areas = areas
  }
}

extension PlaceSet {
  /// Reads a places file: GeoJSON (RFC 7946: a FeatureCollection, a Feature or a bare
  /// geometry; Point and MultiPoint features are places, LineString and MultiLineString ones
  /// paths, Polygon and MultiPolygon ones areas) or a site guide's list of stops, a JSON array of
  /// `{id, label, name, location: {lat, lon, alt}, hasGeoGame}` (or an object holding it as
  /// `stops`). Polygon and MultiPolygon features are areas (their outer rings).
  ///
  /// A place's `id` is its feature's `id`, else its `properties.id`, else its feature's index;
  /// its `name` is `properties.name`, its `label` `properties.label`.
  ///
  /// A GeoJSON file in another CRS than WGS84 (the `crs` member GIS tools still write,
  /// `{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::5514"}}`) has its positions
  /// converted by `projection`, given that CRS's name (`EPSG:5514`): it returns a function from
  /// a position's first two numbers to latitude and longitude, degrees (ARCRS's PROJ operations
  /// do this; this module links no C library).
  ///
  /// - Throws: ``PlaceFileError`` naming the file and the JSON path of the first field at fault,
  ///   or the `crs` member when the file is in a CRS and there is no `projection`.
  public static func read(
    path: String,
    projection: CRSProjection? = nil
  ) throws(PlaceFileError) -> PlaceSet {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    let json: Any
    do { json = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
      let failure = JSONDecodingFailure(error, bytes: bytes)
      throw .invalid(path: path, field: failure.field ?? "(document)", reason: failure.reason)
    }
    var reader = PlaceJSON(path: path)
    if let object = json as? [String: Any], let crs = object["crs"] {
      guard let name = PlaceJSON.crsName(crs) else {
        throw .invalid(
          path: path, field: "crs", reason: "expected {\"type\": \"name\", \"properties\": {\"name\": …}}")
      }
      if !["EPSG:4326", "OGC:CRS84", "EPSG:4979"].contains(name) {
        guard let projection else {
          throw .invalid(
            path: path, field: "crs",
            reason: "positions in \(name) need a CRS conversion (arscene converts through PROJ)")
        }
        do { reader.convert = try projection(name) } catch {
          throw .invalid(path: path, field: "crs", reason: "\(error)")
        }
      }
    }
    return try reader.read(json)
  }
}

/// Walks a places file's JSON, keeping the path of the field at hand for errors.
private struct PlaceJSON {
  let path: String
  var set = PlaceSet()
  /// From a position's first two numbers to latitude and longitude, for a file in another CRS.
  var convert: ((Double, Double) throws -> (latitude: Double, longitude: Double))?

  /// The CRS a legacy GeoJSON `crs` member names, as `EPSG:n` (or `OGC:CRS84`).
  static func crsName(_ crs: Any) -> String? {
    guard let object = crs as? [String: Any], (object["type"] as? String) == "name",
      let properties = object["properties"] as? [String: Any], let name = properties["name"] as? String
    else { return nil }
    if name.hasSuffix("CRS84") { return "OGC:CRS84" }
    // urn:ogc:def:crs:EPSG::5514, urn:ogc:def:crs:EPSG:9.9:5514, EPSG:5514
    let parts = name.split(separator: ":", omittingEmptySubsequences: false)
    if let code = parts.last, Int(code) != nil, parts.contains("EPSG") { return "EPSG:\(code)" }
    return name
  }

  func fail(_ field: String, _ reason: String) -> PlaceFileError {
    .invalid(path: path, field: field, reason: reason)
  }

  mutating func read(_ json: Any) throws(PlaceFileError) -> PlaceSet {
    if let stops = json as? [Any] {
      try readStops(stops, at: "")
    } else if let object = json as? [String: Any], object["type"] == nil,
      let stops = object["stops"] as? [Any]
    {
      try readStops(stops, at: "stops")
    } else if let object = json as? [String: Any] {
      try readGeoJSON(object, at: "")
    } else {
      throw fail("(top level)", "expected a GeoJSON object or a list of stops")
    }
    return set
  }

  // MARK: Site guide stops

  mutating func readStops(_ stops: [Any], at base: String) throws(PlaceFileError) {
    for (i, item) in stops.enumerated() {
      let here = "\(base)[\(i)]"
      guard let stop = item as? [String: Any] else { throw fail(here, "expected an object") }
      guard let id = Self.identifier(stop["id"]) else {
        throw fail(here + ".id", "missing (a string or number)")
      }
      guard let location = stop["location"] as? [String: Any] else {
        throw fail(here + ".location", "missing (an object with lat, lon and alt)")
      }
      let latitude = try number(location["lat"], here + ".location.lat")
      let longitude = try number(location["lon"], here + ".location.lon")
      let height =
        try location["alt"].map { value throws(PlaceFileError) in try number(value, here + ".location.alt") }
        ?? 0
      let coordinate = try checked(latitude, longitude, height, here + ".location")
      var game = false
      if let value = stop["hasGeoGame"] {
        guard let flag = value as? Bool, Self.isBoolean(value) else {
          throw fail(here + ".hasGeoGame", "expected true or false")
        }
        game = flag
      }
      set.places.append(
        PointOfInterest(
          id: id, name: try string(stop["name"], here + ".name"),
          label: Self.identifier(stop["label"]),
          coordinate: coordinate, inGame: game))
    }
  }

  // MARK: GeoJSON

  mutating func readGeoJSON(_ object: [String: Any], at base: String) throws(PlaceFileError) {
    guard let type = object["type"] as? String else {
      throw fail(field(base, "type"), "missing (a GeoJSON type)")
    }
    switch type {
    case "FeatureCollection":
      guard let features = object["features"] as? [Any] else {
        throw fail(field(base, "features"), "missing (a list of features)")
      }
      for (i, item) in features.enumerated() {
        let here = field(base, "features") + "[\(i)]"
        guard let feature = item as? [String: Any] else { throw fail(here, "expected a Feature object") }
        guard (feature["type"] as? String) == "Feature" else {
          throw fail(here + ".type", "expected \"Feature\"")
        }
        try readFeature(feature, index: i, at: here)
      }
    case "Feature":
      try readFeature(object, index: 0, at: base)
    default:
      try readGeometry(object, id: nil, name: nil, label: nil, index: 0, at: base)
    }
  }

  mutating func readFeature(_ feature: [String: Any], index: Int, at here: String) throws(PlaceFileError) {
    let properties: [String: Any]
    switch feature["properties"] {
    case nil, is NSNull: properties = [:]
    case let object as [String: Any]: properties = object
    default: throw fail(here + ".properties", "expected an object or null")
    }
    let id = Self.identifier(feature["id"]) ?? Self.identifier(properties["id"])
    let name = try string(properties["name"], here + ".properties.name")
    let label = Self.identifier(properties["label"])
    switch feature["geometry"] {
    case nil: throw fail(here + ".geometry", "missing (a geometry or null)")
    case is NSNull: return  // a feature without a place
    case let geometry as [String: Any]:
      try readGeometry(geometry, id: id, name: name, label: label, index: index, at: here + ".geometry")
    default: throw fail(here + ".geometry", "expected a geometry object or null")
    }
  }

  mutating func readGeometry(
    _ geometry: [String: Any], id: String?, name: String?, label: String?, index: Int, at here: String
  ) throws(PlaceFileError) {
    guard let type = geometry["type"] as? String else {
      throw fail(field(here, "type"), "missing (a geometry type)")
    }
    let at = field(here, "coordinates")
    switch type {
    case "Point":
      let coordinate = try position(geometry["coordinates"], at)
      set.places.append(
        PointOfInterest(id: id ?? String(index), name: name, label: label, coordinate: coordinate))
    case "MultiPoint":
      let points = try positions(geometry["coordinates"], at)
      for (k, point) in points.enumerated() {
        set.places.append(
          PointOfInterest(id: (id ?? String(index)) + "/\(k)", name: name, label: label, coordinate: point))
      }
    case "LineString":
      set.paths.append(PlacePath(id: id, name: name, coordinates: try positions(geometry["coordinates"], at)))
    case "MultiLineString":
      guard let lines = geometry["coordinates"] as? [Any] else { throw fail(at, "expected a list of lines") }
      for (k, line) in lines.enumerated() {
        set.paths.append(PlacePath(id: id, name: name, coordinates: try positions(line, at + "[\(k)]")))
      }
    case "Polygon":
      try readArea(geometry["coordinates"], id: id ?? String(index), name: name, at: at)
    case "MultiPolygon":
      guard let polygons = geometry["coordinates"] as? [Any] else {
        throw fail(at, "expected a list of polygons")
      }
      for (k, polygon) in polygons.enumerated() {
        try readArea(polygon, id: (id ?? String(index)) + "/\(k)", name: name, at: at + "[\(k)]")
      }
    case "GeometryCollection":
      return
    default:
      throw fail(field(here, "type"), "unknown geometry type \"\(type)\"")
    }
  }

  /// A Polygon's coordinates: its outer ring (holes are not geofenced), closed as GeoJSON
  /// requires and kept without the repeated vertex.
  mutating func readArea(_ value: Any?, id: String, name: String?, at here: String) throws(PlaceFileError) {
    guard let rings = value as? [Any], let outer = rings.first else {
      throw fail(here, "expected a list of rings")
    }
    var ring = try positions(outer, here + "[0]")
    guard ring.count >= 4, ring.first == ring.last else {
      throw fail(here + "[0]", "a ring needs at least 4 positions, the last equal to the first")
    }
    ring.removeLast()
    set.areas.append(PlaceArea(id: id, name: name, ring: ring))
  }

  // MARK: Values

  /// A GeoJSON position `[longitude, latitude(, height)]`, checked.
  func position(_ value: Any?, _ here: String) throws(PlaceFileError) -> GeodeticCoordinate {
    guard let list = value as? [Any], (2...3).contains(list.count) else {
      throw fail(here, "expected [longitude, latitude] or [longitude, latitude, height]")
    }
    let x = try number(list[0], here + "[0]"), y = try number(list[1], here + "[1]")
    let height = list.count == 3 ? try number(list[2], here + "[2]") : 0
    guard let convert else { return try checked(y, x, height, here) }
    let converted: (latitude: Double, longitude: Double)
    do { converted = try convert(x, y) } catch { throw fail(here, "cannot convert (\(x), \(y)): \(error)") }
    return try checked(converted.latitude, converted.longitude, height, here)
  }

  func positions(_ value: Any?, _ here: String) throws(PlaceFileError) -> [GeodeticCoordinate] {
    guard let list = value as? [Any], !list.isEmpty else { throw fail(here, "expected a list of positions") }
    var out: [GeodeticCoordinate] = []
    for (k, item) in list.enumerated() { out.append(try position(item, here + "[\(k)]")) }
    return out
  }

  func checked(_ latitude: Double, _ longitude: Double, _ height: Double, _ here: String)
    throws(PlaceFileError)
    -> GeodeticCoordinate
  {
    guard abs(latitude) <= 90 else { throw fail(here, "latitude \(latitude) is outside ±90°") }
    guard abs(longitude) <= 180 else { throw fail(here, "longitude \(longitude) is outside ±180°") }
    return GeodeticCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude, height: height)
  }

  func number(_ value: Any?, _ here: String) throws(PlaceFileError) -> Double {
    guard let value, let n = value as? NSNumber, !Self.isBoolean(value), n.doubleValue.isFinite else {
      throw fail(here, value == nil ? "missing (a number)" : "expected a finite number")
    }
    return n.doubleValue
  }

  func string(_ value: Any?, _ here: String) throws(PlaceFileError) -> String? {
    switch value {
    case nil, is NSNull: return nil
    case let text as String: return text
    default: throw fail(here, "expected a string")
    }
  }

  func field(_ base: String, _ key: String) -> String { base.isEmpty ? key : base + "." + key }

  /// An identifier from a string or an integer (as GeoJSON allows for `id`); nil otherwise.
  static func identifier(_ value: Any?) -> String? {
    switch value {
    case let text as String: return text
    case let n as NSNumber where !isBoolean(n):
      let d = n.doubleValue
      return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    default: return nil
    }
  }

  /// Whether a decoded JSON value was `true` or `false` (NSNumber holds both kinds).
  static func isBoolean(_ value: Any) -> Bool {
    guard let n = value as? NSNumber else { return false }
    return String(cString: n.objCType) == "c"  // JSON's true and false; numbers are "q" or "d"
  }
}
