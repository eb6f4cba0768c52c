import ARFiles

extension MarkerDictionary {
  /// A custom dictionary from the YAML file OpenCV's `Dictionary::writeDictionary` writes (and
  /// `readDictionary` reads): `nmarkers`, `markersize` (3 to 8 data cells a side here),
  /// `maxCorrectionBits` (0 when absent, as OpenCV reads it), and `marker_0` … `marker_N-1`, each a string of `markersize²` bits,
  /// row by row from the top left, 1 white. Named after the file.
  ///
  /// - Throws: ``MarkerDictionaryFileError`` naming the file, the line and the field.
  public init(openCVFile path: String) throws(MarkerDictionaryFileError) {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch {
      throw .init(path: path, line: 0, field: "file", reason: error.reason)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .init(path: path, line: 0, field: "file", reason: "not UTF-8 text")
    }
    var values: [String: (value: String, line: Int)] = [:]
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingSuffix("\r")
      if line.isEmpty || line.hasPrefix("%") || line.hasPrefix("---") || line.hasPrefix("#") { continue }
      guard let colon = line.firstIndex(of: ":") else {
        throw .init(
          path: path, line: index + 1, field: "line", reason: "'\(line.prefix(60))' is not 'key: value'")
      }
      let key = line[..<colon].trimmingSpaces, value = line[line.index(after: colon)...].trimmingSpaces
      guard values[key] == nil else {
        throw .init(path: path, line: index + 1, field: key, reason: "appears twice")
      }
      values[key] = (
        value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
          ? String(value.dropFirst().dropLast()) : value, index + 1
      )
    }
    func integer(
      _ key: String, _ range: ClosedRange<Int>, absent: Int? = nil
    ) throws(MarkerDictionaryFileError) -> Int {
      guard let entry = values[key] else {
        if let absent { return absent }
        throw .init(path: path, line: 0, field: key, reason: "missing")
      }
      guard let n = Int(entry.value), range.contains(n) else {
        throw .init(
          path: path, line: entry.line, field: key,
          reason:
            "'\(entry.value.prefix(60))' is not a whole number from \(range.lowerBound) to \(range.upperBound)"
        )
      }
      return n
    }
    let size = try integer("markersize", 3...8), count = try integer("nmarkers", 1...100_000)
    // OpenCV's own tutorial dictionary (samples/aruco/tutorial_dict.yml) has no
    // maxCorrectionBits; readDictionary then corrects no bits, and so do we.
    let correctable = try integer("maxCorrectionBits", 0...(size * size / 2), absent: 0)
    var codes: [UInt64] = []
    for id in 0..<count {
      let key = "marker_\(id)"
      guard let entry = values[key] else { throw .init(path: path, line: 0, field: key, reason: "missing") }
      guard entry.value.utf8.count == size * size, entry.value.utf8.allSatisfy({ $0 == 0x30 || $0 == 0x31 })
      else {
        throw .init(
          path: path, line: entry.line, field: key,
          reason: "'\(entry.value.prefix(60))' is not \(size * size) bits of 0 and 1")
      }
      codes.append(entry.value.utf8.reduce(0) { $0 << 1 | UInt64($1 - 0x30) })
    }
    let name =
      String(path.split(separator: "/").last ?? "custom").split(separator: ".").first.map(String.init)
      ?? "custom"
    self.init(
      name: name, size: size, correctableBits: correctable, minimumDistance: nil, codes: codes,
      source: "OpenCV dictionary file \(path)")
  }
}

/// Why a dictionary file is refused: the file, the line (0 for the file as a whole), the field.
public struct MarkerDictionaryFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The dictionary file.
  public var path: String
  /// The line at fault, from 1; 0 for the file as a whole.
  public var line: Int
  /// The field at fault (`markersize`, `marker_3`, …).
  public var field: String
  /// Why it is refused.
  public var reason: String

  public var description: String {
    line > 0 ? "\(path):\(line): \(field): \(reason)" : "\(path): \(field): \(reason)"
  }
}

extension Substring {
  fileprivate func trimmingSuffix(_ suffix: Character) -> Substring { last == suffix ? dropLast() : self }
  fileprivate var trimmingSpaces: String {
    String(
      drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
  }
}
