import ARFiles
import ARGeo
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A walk as a phone or watch recorded it: fixes in time order.
public struct Track: Sendable, Equatable {
  /// The track's name in its file, if any.
  public var name: String?
  /// The fixes, in time order.
  public var fixes: [TrackFix]

  /// A track of `fixes` (in time order).
  public init(name: String? = nil, fixes: [TrackFix]) {
    self.name = name
    self.fixes = fixes
  }

  /// Metres of horizontal error a GPX `hdop` of 1 stands for: the user equivalent range error
  /// of a phone's single-frequency GPS (about 5 m), so that accuracy ≈ 5 m × HDOP.
  public static let metresPerHDOP = 5.0

  /// Reads a GPX 1.1 (or 1.0) file's track points (`trk/trkseg/trkpt`, every segment in turn;
  /// a file without tracks gives its route points, `rte/rtept`): `lat` and `lon`, `ele` as the
  /// height, `time`, and an accuracy from `hdop` (× ``metresPerHDOP``) when given.
  ///
  /// - Throws: ``PlaceFileError`` naming the file and line: a point without a time or with
  ///   coordinates out of range, time running backwards, no points at all, malformed XML.
  public static func readGPX(path: String) throws(PlaceFileError) -> Track {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    // Foundation's parser traps on a byte that is not UTF-8 in a name: it sees only checked
    // (or transcoded) UTF-8.
    let utf8: [UInt8]
    do { utf8 = try TextBytes.xmlAsUTF8(bytes) } catch {
      throw .invalid(path: path, field: error.place, reason: error.reason)
    }
    let reader = GPXReader(path: path)
    let parser = XMLParser(data: Data(utf8))
    parser.delegate = reader
    let parsed = parser.parse()
    if let failure = reader.failure { throw failure }
    guard parsed else {
      // Foundation's description of the error on Linux is only "The operation could not be
      // completed" with its domain and code: the place says more.
      throw .invalid(
        path: path, field: "line \(parser.lineNumber), column \(parser.columnNumber)",
        reason: "not well-formed XML")
    }
    let fixes = reader.track.isEmpty ? reader.route : reader.track
    guard !fixes.isEmpty else { throw .invalid(path: path, field: "gpx", reason: "no track or route points") }
    return Track(name: reader.name, fixes: fixes)
  }
}

/// The XML parser's delegate for GPX: collects points, keeping the line of each for errors.
private final class GPXReader: NSObject, XMLParserDelegate {
  let path: String
  var track: [TrackFix] = [], route: [TrackFix] = []
  var name: String?
  var failure: PlaceFileError?
  private var point: (latitude: Double, longitude: Double, line: Int, isTrack: Bool)?
  private var height: Double?, time: Double?, hdop: Double?
  private var text = ""
  private var path_: [String] = []

  init(path: String) { self.path = path }

  func fail(_ parser: XMLParser, _ reason: String) {
    if failure == nil { failure = .invalid(path: path, field: "line \(parser.lineNumber)", reason: reason) }
    parser.abortParsing()
  }

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    path_.append(element)
    text = ""
    guard element == "trkpt" || element == "rtept" else { return }
    guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init)
    else {
      return fail(parser, "<\(element)> needs numeric lat and lon attributes")
    }
    guard lat.isFinite, abs(lat) <= 90, lon.isFinite, abs(lon) <= 180 else {
      return fail(parser, "<\(element)> lat \(lat), lon \(lon) is out of range")
    }
    point = (lat, lon, parser.lineNumber, element == "trkpt")
    (height, time, hdop) = (nil, nil, nil)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(
    _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
  ) {
    defer { path_.removeLast() }
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch element {
    case "ele" where point != nil:
      guard let h = Double(value), h.isFinite else {
        return fail(parser, "<ele> '\(value.quotedForMessage)' is not a number")
      }
      height = h
    case "time" where point != nil:
      guard let t = InternetDateTime.secondsSince1970(value) else {
        return fail(parser, "<time> '\(value.quotedForMessage)' is not an ISO 8601 (RFC 3339) time")
      }
      time = t
    case "hdop" where point != nil:
      guard let h = Double(value), h.isFinite, h > 0 else {
        return fail(parser, "<hdop> '\(value.quotedForMessage)' is not a positive number")
      }
      hdop = h
    case "name" where point == nil && path_.count >= 2 && path_[path_.count - 2] == "trk" && name == nil:
      name = value
    case "trkpt", "rtept":
      guard let p = point else { return }
      guard let time else {
        return fail(parser, "the point begun on line \(p.line) has no <time>")
      }
      let fix = TrackFix(
        time: time,
        coordinate: GeodeticCoordinate(
          latitudeDegrees: p.latitude, longitudeDegrees: p.longitude, height: height ?? 0),
        accuracy: hdop.map { $0 * Track.metresPerHDOP })
      let list = p.isTrack ? track : route
      if let last = list.last, fix.time < last.time {
        return fail(
          parser, "time runs backwards: the point begun on line \(p.line) is earlier than the one before it")
      }
      if p.isTrack { track.append(fix) } else { route.append(fix) }
      point = nil
    default:
      break
    }
  }
}
