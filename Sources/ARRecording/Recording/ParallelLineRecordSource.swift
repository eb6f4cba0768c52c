import ARFiles
import ARMath
import Dispatch

/// Records parsed from the lines of a text file by several threads: the file is read in runs of
/// whole lines (``blockBytes``), each run parsed on a worker while the caller consumes the runs
/// before it, in order. What a line gives or the error it raises comes out exactly as a
/// ``LineRecordSource`` would give it, in the file's order; only the parsing of a line must be
/// a pure function of its bytes and number (checks that span lines go in `check`, run in order).
final class ParallelLineRecordSource: RecordSource {
  /// The record on one line (its bytes, borrowed for the call, and its number), if any.
  typealias Parse = @Sendable (UnsafeBufferPointer<UInt8>, Int) throws(RecordingError) -> RecordingRecord?
  typealias Check = (RecordingRecord, Int) throws(RecordingError) -> Void
  /// Bytes a worker parses at a time: small enough that a few in flight stay a few megabytes.
  static let blockBytes = 1 << 17
  /// Runs parsed ahead of the caller: enough to keep every core busy.
  static let inFlight = 3

  private let lines: LineReader
  private let parse: Parse
  private let check: Check
  private var queue: [Block] = []
  /// The run being consumed, and where in it.
  private var current = Block(), index = 0, errorIndex = 0
  private var atEnd = false
  private var lineNumber = 0

  /// A run of lines and, once a worker has parsed it, what they gave: their records in order,
  /// each record's line, and the errors with the index of the record they come before.
  final class Block: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var records: [RecordingRecord] = []
    var lines: [Int] = []
    var errors: [(before: Int, line: Int, error: RecordingError)] = []
  }

  init(lines: LineReader, parse: @escaping Parse, check: @escaping Check) {
    self.lines = lines
    self.parse = parse
    self.check = check
  }

  var location: (path: String, line: Int) { (lines.path, lineNumber) }
  var progress: (read: Int64, total: Int64) { (lines.bytesRead, lines.size) }

  func next() throws(RecordingError) -> RecordingRecord? {
    while true {
      if errorIndex < current.errors.count, current.errors[errorIndex].before == index {
        lineNumber = current.errors[errorIndex].line
        errorIndex += 1
        throw current.errors[errorIndex - 1].error
      }
      if index < current.records.count {
        lineNumber = current.lines[index]
        index += 1
        try check(current.records[index - 1], lineNumber)
        return current.records[index - 1]
      }
      try fill()
      guard !queue.isEmpty else { return nil }
      let consumed = current
      current = queue.removeFirst()
      // Freeing a run's records costs as much as reading them: done off the caller's thread.
      DispatchQueue.global().async { withExtendedLifetime(consumed) {} }
      current.done.wait()
      (index, errorIndex) = (0, 0)
      try fill()
    }
  }

  /// Starts workers on the next runs of lines until ``inFlight`` are under way.
  private func fill() throws(RecordingError) {
    while queue.count < Self.inFlight && !atEnd {
      let run: (text: [UInt8], firstLine: Int)?
      do { run = try lines.nextLines(bytes: Self.blockBytes) } catch {
        throw .unreadable(path: lines.path, reason: error.reason)
      }
      guard let run else {
        atEnd = true
        return
      }
      let block = Block()
      queue.append(block)
      let parse = self.parse
      DispatchQueue.global().async {
        Self.parseLines(run.text, firstLine: run.firstLine, parse, into: block)
        block.done.signal()
      }
    }
  }

  /// Each line of `text` (its `\r\n` or `\n` dropped) through `parse`, into `block`.
  static func parseLines(_ text: [UInt8], firstLine: Int, _ parse: Parse, into block: Block) {
    text.withUnsafeBufferPointer { text in
      var start = 0, line = firstLine
      while start < text.count {
        let newline = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
        var last = newline
        if last > start && text[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        do throws(RecordingError) {
          if let record = try parse(UnsafeBufferPointer(rebasing: text[start..<last]), line) {
            block.records.append(record)
            block.lines.append(line)
          }
        } catch {
          block.errors.append((block.records.count, line, error))
        }
        start = newline + 1
        line += 1
      }
    }
  }
}
