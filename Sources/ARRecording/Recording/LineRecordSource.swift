import ARFiles
import ARMath

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
      throw .unreadable(path: path, reason: error.reason)
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
    } catch { throw .unreadable(path: path, reason: error.reason) }
  }

  func next() throws(RecordingError) -> RecordingRecord? {
    while pendingIndex == pending.count {
      let line: [UInt8]?
      do { line = try lines.next() } catch { throw .unreadable(path: lines.path, reason: error.reason) }
      guard let line else { return nil }
      pending = try parse(line, lines.lineNumber)
      pendingIndex = 0
    }
    defer { pendingIndex += 1 }
    return pending[pendingIndex]
  }
}
