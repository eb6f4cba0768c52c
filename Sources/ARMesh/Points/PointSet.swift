import ARFiles
import Foundation

/// A file of named points on a model (docs/points.schema.json): acupressure points on a hand,
/// points of interest on a site model. Positions are in the model's frame, metres.
public struct PointSet: Codable, Sendable, Equatable {
  /// The model the points belong to (informative).
  public var model: String?
  /// A sentence describing the model's frame (informative).
  public var frame: String?
  /// The points.
  public var points: [Point]

  /// One named point.
  public struct Point: Codable, Sendable, Equatable {
    /// Short code shown and reported, e.g. `LI4`.
    public var code: String
    /// Full name, e.g. `Hegu (Joining Valley)`.
    public var name: String?
    /// Where it is, in words.
    public var location: String?
    /// Position in the model's frame, metres.
    public var position: [Double]
    /// Tap target and marker radius, metres (> 0).
    public var radius: Double
  }

  /// Points named `markers` (code and position in the model's frame, metres), each of
  /// `radius` metres: a model's own marked points.
  public init(markers: [(code: String, position: [Double])], radius: Double) {
    points = markers.map {
      Point(code: $0.code, name: nil, location: nil, position: $0.position, radius: radius)
    }
  }

  /// Reads and checks a point file.
  /// - Throws: ``PointSetError`` naming the file and the field (`points[3].radius`).
  public static func load(path: String) throws(PointSetError) -> PointSet {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    let set: PointSet
    do { set = try JSONDecoder().decode(PointSet.self, from: Data(bytes)) } catch {
      let failure = JSONDecodingFailure(error, bytes: bytes)
      throw .invalid(path: path, field: failure.field, reason: failure.reason)
    }
    var codes = Set<String>()
    for (i, point) in set.points.enumerated() {
      let field = "points[\(i)]"
      guard point.position.count == 3, point.position.allSatisfy(\.isFinite) else {
        throw .invalid(
          path: path, field: field + ".position", reason: "expected 3 finite numbers (metres)")
      }
      guard point.radius > 0, point.radius.isFinite else {
        throw .invalid(
          path: path, field: field + ".radius", reason: "must be a positive number of metres")
      }
      guard codes.insert(point.code).inserted else {
        throw .invalid(path: path, field: field + ".code", reason: "'\(point.code)' appears twice")
      }
    }
    guard !set.points.isEmpty else { throw .invalid(path: path, field: "points", reason: "is empty") }
    return set
  }
}
