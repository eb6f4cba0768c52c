import ARFiles
import ARMath

/// One stream of records of a recording (a file, a folder listing), in its own time order.
/// ``RecordingReader`` merges several by time.
protocol RecordSource: AnyObject {
  /// The next record, or nil at the end.
  func next() throws(RecordingError) -> RecordingRecord?
  /// Where the record ``next()`` returned last came from, for errors: a file and a line.
  var location: (path: String, line: Int) { get }
  /// Bytes read so far and in all, for progress (zero for sources that are not files).
  var progress: (read: Int64, total: Int64) { get }
}

/// Records parsed from the lines of a text file, streamed: a line can give none (a header, a
/// comment, a blank), one or several records (Stray Scanner's odometry line is a pose and a
/// frame).
final class LineRecordSource: RecordSource {
  typealias Parse = ([UInt8], Int) throws(RecordingError) -> [RecordingRecord]
  private let lines: LineReader
  private let parse: Parse
  private var pending: [RecordingRecord] = []
  private var pendingIndex = 0

  init(path: String, parse: @escaping Parse) throws(RecordingError) {
    do { lines = try LineReader(path: path) } catch {
      throw .unreadable(path: path, reason: error.description)
    }
    self.parse = parse
  }

  var location: (path: String, line: Int) { (lines.path, lines.lineNumber) }
  var progress: (read: Int64, total: Int64) { (lines.bytesRead, lines.size) }

  /// Every line of a small file (intrinsics, a camera matrix).
  static func allLines(_ path: String) throws(RecordingError) -> [[UInt8]] {
    do {
      let reader = try LineReader(path: path)
      var lines: [[UInt8]] = []
      while let line = try reader.next() { lines.append(line) }
      return lines
    } catch { throw .unreadable(path: path, reason: error.description) }
  }

  func next() throws(RecordingError) -> RecordingRecord? {
    while pendingIndex == pending.count {
      let line: [UInt8]?
      do { line = try lines.next() } catch { throw .unreadable(path: lines.path, reason: error.description) }
      guard let line else { return nil }
      pending = try parse(line, lines.lineNumber)
      pendingIndex = 0
    }
    defer { pendingIndex += 1 }
    return pending[pendingIndex]
  }
}

/// Records already in memory (a folder's listing of frames).
final class ArrayRecordSource: RecordSource {
  private let records: [(RecordingRecord, path: String)]
  private var index = 0

  init(_ records: [(RecordingRecord, path: String)]) { self.records = records }

  var location: (path: String, line: Int) {
    index == 0 ? (records.first?.path ?? "", 0) : (records[index - 1].path, 0)
  }
  var progress: (read: Int64, total: Int64) { (0, 0) }

  func next() throws(RecordingError) -> RecordingRecord? {
    guard index < records.count else { return nil }
    defer { index += 1 }
    return records[index].0
  }
}

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
          reason: "'\(text)' is not a number")
      case .notFinite(_, _, let field, let text):
        throw .badRecord(
          path: path, line: line, field: field <= names.count ? names[field - 1] : "column \(field)",
          reason: "'\(text)' is not finite")
      }
    }
  }
}
