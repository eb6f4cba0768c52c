import ARFiles
import Foundation

/// Points in metres (world or sensor frame), with an optional confidence per point (0…1, or
/// ARKit's 0/1/2 levels; higher is better).
public struct PointCloud: Sendable, Equatable {
  /// The points.
  public var points: [SIMD3<Double>]
  /// One confidence per point, or empty.
  public var confidences: [Double]

  /// A cloud; `confidences` is empty or one per point.
  public init(points: [SIMD3<Double>], confidences: [Double] = []) {
    precondition(confidences.isEmpty || confidences.count == points.count, "one confidence per point")
    self.points = points
    self.confidences = confidences
  }

  /// Reads a `.ply` (ASCII or binary, little or big endian; a `vertex` element with `x`, `y`,
  /// `z` and optionally `confidence`) or `.xyz` text file (`x y z [confidence]` a line, `#`
  /// comments).
  /// - Throws: ``PoseError/badFile(path:line:reason:)`` naming the line (text) or the element
  ///   (binary) that is wrong; non-finite coordinates are errors too.
  public static func read(path: String) throws(PoseError) -> PointCloud {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch {
      throw .badFile(path: path, line: 0, reason: "cannot read: \(error.reason)")
    }
    if bytes.starts(with: Array("ply".utf8)) { return try PLYReader(path: path, bytes: bytes).read() }
    return try readXYZ(path: path, bytes: bytes)
  }

  static func readXYZ(path: String, bytes: [UInt8]) throws(PoseError) -> PointCloud {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .badFile(path: path, line: 0, reason: "not UTF-8 text (and not a PLY file)")
    }
    var points: [SIMD3<Double>] = [], confidences: [Double] = []
    var columns: Int? = nil
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" })
      guard let first = fields.first, !first.hasPrefix("#") else { continue }
      guard fields.count == 3 || fields.count == 4 else {
        throw .badFile(
          path: path, line: index + 1, reason: "expected x y z [confidence], got \(fields.count) fields")
      }
      if let columns, columns != fields.count {
        throw .badFile(
          path: path, line: index + 1, reason: "expected \(columns) fields like the lines before")
      }
      columns = fields.count
      var values: [Double] = []
      for (i, field) in fields.enumerated() {
        guard let v = Double(field), v.isFinite else {
          throw .badFile(
            path: path, line: index + 1,
            reason: "field \(i + 1) '\(field.quotedForMessage)' is not a finite number")
        }
        values.append(v)
      }
      points.append(SIMD3(values[0], values[1], values[2]))
      if values.count == 4 { confidences.append(values[3]) }
    }
    return PointCloud(points: points, confidences: confidences)
  }
}
