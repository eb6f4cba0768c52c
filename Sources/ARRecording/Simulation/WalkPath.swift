import ARFiles
import ARGeo
import ARMath
import Foundation

/// Where a simulated walker goes: a polyline in a site's ENU frame (east, north metres), walked
/// at constant speed, from its start to its end and back again (or round, when it is closed),
/// for as long as the walk lasts.
public struct WalkPath: Sendable, Equatable {
  /// The corners, ENU east and north, metres.
  public private(set) var points: [SIMD2<Double>]
  /// The distance along the path at each corner, metres.
  private var distances: [Double]
  /// Whether the last corner joins the first.
  public let closed: Bool

  /// A path through `points` (at least two distinct).
  public init(points: [SIMD2<Double>], closed: Bool) throws(RecordingError) {
    var kept: [SIMD2<Double>] = []
    for p in points where kept.last.map({ ($0 - p).length > 1e-9 }) ?? true { kept.append(p) }
    if closed, kept.count > 2, let first = kept.first, let last = kept.last, (first - last).length <= 1e-9 {
      kept.removeLast()
    }
    guard kept.count >= 2 else {
      throw .unknownFormat(path: "path", reason: "a walk needs at least two distinct points")
    }
    self.points = kept
    self.closed = closed
    var d = [0.0]
    let corners = closed ? kept + [kept[0]] : kept
    for i in 1..<corners.count { d.append(d[i - 1] + (corners[i] - corners[i - 1]).length) }
    distances = d
  }

  /// The length of one pass, metres.
  public var length: Double { distances.last! }

  /// The position (east, north) and the direction of travel (unit) after walking `s` metres.
  public func position(after s: Double) -> (position: SIMD2<Double>, direction: SIMD2<Double>) {
    // Closed: round and round. Open: there and back.
    var u = s.truncatingRemainder(dividingBy: closed ? length : 2 * length)
    var backwards = false
    if !closed && u > length {
      u = 2 * length - u
      backwards = true
    }
    let corners = closed ? points + [points[0]] : points
    var i = 1
    while i < distances.count - 1 && distances[i] < u { i += 1 }
    let a = corners[i - 1], b = corners[i]
    let f = (u - distances[i - 1]) / (distances[i] - distances[i - 1])
    let direction = (b - a) / (b - a).length
    return (a + f * (b - a), backwards ? -direction : direction)
  }

  /// The default tour of a site: a loop past every anchor, 8 m out from the anchors' centre so
  /// that each is seen from outside; round one anchor at 10 m when there is only one.
  public static func tour(_ site: GeoSite) throws(RecordingError) -> WalkPath {
    let positions = site.anchorPositions.map { SIMD2($0.x, $0.y) }
    guard !positions.isEmpty else {
      throw .unknownFormat(path: "scene", reason: "no geo-anchored objects to walk among")
    }
    let centre = positions.reduce(.zero, +) / Double(positions.count)
    var stops: [(angle: Double, point: SIMD2<Double>)] = []
    for p in positions {
      let out = p - centre
      guard out.length > 1 else { continue }
      stops.append((Double.atan2(y: out.y, x: out.x), p + 8 * out / out.length))
    }
    if stops.count < 3 {
      // A circle round the centre, past the anchors.
      let radius = 10 + (positions.map { ($0 - centre).length }.max() ?? 0)
      let circle = (0..<16).map { i -> SIMD2<Double> in
        let a = Double(i) / 16 * 2 * .pi
        return centre + radius * SIMD2(Double.cos(a), Double.sin(a))
      }
      return try WalkPath(points: circle, closed: true)
    }
    return try WalkPath(points: stops.sorted { $0.angle < $1.angle }.map(\.point), closed: true)
  }

  /// The first LineString of a GeoJSON file (a Feature, a FeatureCollection or a bare geometry),
  /// `[longitude, latitude]` pairs, in `frame`.
  public static func geoJSON(path: String, frame: LocalTangentFrame) throws(RecordingError) -> WalkPath {
    guard let data = try? Data(FileIO.read(path)) else {
      throw .unreadable(path: path, reason: "no such file or not readable")
    }
    guard let json = try? JSONSerialization.jsonObject(with: data) else {
      throw .unknownFormat(path: path, reason: "not JSON")
    }
    func lineString(_ value: Any) -> [Any]? {
      guard let object = value as? [String: Any] else { return nil }
      switch object["type"] as? String {
      case "LineString": return object["coordinates"] as? [Any]
      case "Feature": return object["geometry"].flatMap(lineString)
      case "FeatureCollection": return (object["features"] as? [Any])?.lazy.compactMap(lineString).first
      default: return nil
      }
    }
    guard let coordinates = lineString(json) else {
      throw .badRecord(path: path, line: 0, field: "geometry", reason: "no LineString (GeoJSON) in the file")
    }
    var points: [SIMD2<Double>] = []
    for (i, item) in coordinates.enumerated() {
      guard let pair = item as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
        let lat = (pair[1] as? NSNumber)?.doubleValue, abs(lat) <= 90, abs(lon) <= 180
      else {
        throw .badRecord(
          path: path, line: 0, field: "coordinates[\(i)]", reason: "expected [longitude, latitude] in degrees"
        )
      }
      let enu = frame.enu(
        GeodeticCoordinate(latitudeDegrees: lat, longitudeDegrees: lon, height: frame.origin.height))
      points.append(SIMD2(enu.x, enu.y))
    }
    let closed = points.count > 2 && (points[0] - points[points.count - 1]).length < 1e-6
    return try WalkPath(points: points, closed: closed)
  }
}
