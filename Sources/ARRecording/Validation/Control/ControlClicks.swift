import ARFiles
import ARMath
import Foundation

/// A clicks file, as labelling tools export one: a header line `t,name,u,v` (and optionally
/// `sigma_px`), then one click a line: the frame's time (seconds on the recording's clock), the
/// control point's name, the pixel (ARScene's convention) and its 1σ. Blank lines and `#`
/// comments are skipped; a name may be double-quoted (with `""` for a quote inside).
public enum ControlClicks {
  /// The clicks of the file at `path`, checked: finite times, pixels within ±100,000 px,
  /// `sigma_px` above 0 and at most 1,000, names among `known` (when given).
  ///
  /// - Throws: ``RecordingError/badRecord(path:line:field:reason:)`` naming the line and column.
  public static func read(path: String, known: Set<String>? = nil) throws(RecordingError)
    -> [ControlObservation]
  {
    var clicks: [ControlObservation] = []
    var columns: [String]?
    for (index, bytes) in try LineRecordSource.allLines(path).enumerated() {
      let line = index + 1
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty, !text.hasPrefix("#") else { continue }
      let fields = try split(text, path: path, line: line)
      guard let header = columns else {
        columns = try checkedHeader(fields, path: path, line: line)
        continue
      }
      clicks.append(try click(fields, header: header, known: known, path: path, line: line))
    }
    guard columns != nil else {
      throw .badRecord(
        path: path, line: 0, field: "header", reason: "empty: expected a header line t,name,u,v")
    }
    return clicks
  }

  private static func checkedHeader(_ fields: [String], path: String, line: Int) throws(RecordingError)
    -> [String]
  {
    let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard names == ["t", "name", "u", "v"] || names == ["t", "name", "u", "v", "sigma_px"] else {
      throw .badRecord(
        path: path, line: line, field: "header",
        reason:
          "'\(fields.joined(separator: ",").quotedForMessage)' is not t,name,u,v (and optionally sigma_px)")
    }
    return names
  }

  private static func click(
    _ fields: [String], header: [String], known: Set<String>?, path: String, line: Int
  ) throws(RecordingError) -> ControlObservation {
    guard fields.count == header.count else {
      throw .badRecord(
        path: path, line: line, field: "line",
        reason: "expected \(header.count) columns (\(header.joined(separator: ", "))), got \(fields.count)")
    }
    func number(_ column: Int, _ range: ClosedRange<Double>) throws(RecordingError) -> Double {
      let text = fields[column].trimmingCharacters(in: .whitespaces)
      guard let value = Double(text), value.isFinite else {
        throw .badRecord(
          path: path, line: line, field: header[column],
          reason: "'\(text.quotedForMessage)' is not a finite number")
      }
      guard range.contains(value) else {
        throw .badRecord(
          path: path, line: line, field: header[column], reason: "\(value) is outside \(range)")
      }
      return value
    }
    let time = try number(0, -1e12...1e12)
    let name = fields[1].trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { throw .badRecord(path: path, line: line, field: "name", reason: "empty") }
    if let known, !known.contains(name) {
      throw .badRecord(
        path: path, line: line, field: "name",
        reason: "'\(name.quotedForMessage)' is no control point of the scene")
    }
    let pixel = SIMD2(try number(2, -1e5...1e5), try number(3, -1e5...1e5))
    let sigma = header.count == 5 ? try number(4, 1e-6...1000) : ControlObservation.defaultClickSigma
    return ControlObservation(
      time: time, name: name, pixel: pixel, sigmaPixels: sigma, source: .click, line: line)
  }

  /// The comma-separated fields of `text`, double quotes honoured.
  static func split(_ text: String, path: String, line: Int) throws(RecordingError) -> [String] {
    var fields: [String] = [], field = "", quoted = false, wasQuoted = false
    var characters = text.makeIterator()
    while let c = characters.next() {
      if quoted {
        if c == "\"" {
          // A doubled quote is a quote; a single one ends the quoted part.
          var lookahead = characters
          if lookahead.next() == "\"" {
            field.append("\"")
            characters = lookahead
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "," {
        fields.append(field)
        (field, wasQuoted) = ("", false)
      } else if c == "\"" && field.trimmingCharacters(in: .whitespaces).isEmpty && !wasQuoted {
        (field, quoted, wasQuoted) = ("", true, true)
      } else {
        field.append(c)
      }
    }
    guard !quoted else {
      throw .badRecord(path: path, line: line, field: "line", reason: "a quote is opened and never closed")
    }
    fields.append(field)
    return fields
  }
}
