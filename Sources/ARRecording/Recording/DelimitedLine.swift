import ARFiles
import ARMath

/// Splits a CSV or whitespace-separated line into numbers; blank and `#` lines give nil, and a
/// header line of words gives nil when `allowHeader` and it is the first line.
enum DelimitedLine {
  static func numbers(
    _ bytes: [UInt8], path: String, line: Int, columns: ClosedRange<Int>, names: [String],
    allowHeader: Bool = false
  ) throws(RecordingError) -> [Double]? {
    if allowHeader, line == 1, let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }),
      !(first >= 0x30 && first <= 0x39 || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
        || first == UInt8(ascii: ".") || first == UInt8(ascii: "#"))
    {
      return nil  // a header of column names
    }
    do {
      // Parse up to the most columns the layout allows, then check the count against the range.
      let values = try bytes.withUnsafeBufferPointer { b throws(NumberTextError) in
        try NumberText.parseLine(
          bytes: b, columns: columns.upperBound, source: path, lineNumber: line, extraColumns: false,
          fewerColumns: columns.lowerBound)
      }
      return values
    } catch {
      switch error {
      case .wrongCount(_, _, _, let got):
        let expected =
          columns.count == 1 ? "\(columns.lowerBound)" : "\(columns.lowerBound)–\(columns.upperBound)"
        throw .badRecord(
          path: path, line: line, field: "line",
          reason:
            "expected \(expected) columns (\(names.prefix(columns.upperBound).joined(separator: ", "))), got \(got)"
        )
      case .notANumber(_, _, let field, let text):
        throw .badRecord(
          path: path, line: line, field: field <= names.count ? names[field - 1] : "column \(field)",
          reason: "'\(text.quotedForMessage)' is not a number")
      case .notFinite(_, _, let field, let text):
        throw .badRecord(
          path: path, line: line, field: field <= names.count ? names[field - 1] : "column \(field)",
          reason: "'\(text.quotedForMessage)' is not finite")
      }
    }
  }
}
