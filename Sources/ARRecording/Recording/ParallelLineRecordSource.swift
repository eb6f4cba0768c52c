import ARFiles
import ARMath
import Dispatch

/// Records parsed from the lines of a text file by several threads: the file is cut into runs of
/// about ``blockBytes``, each read and parsed on a worker while the caller consumes the runs
/// before it, in order. What a line gives or the error it raises comes out exactly as a
/// ``LineRecordSource`` would give it, in the file's order; only the parsing of a line must be
/// a pure function of its bytes and number (checks that span lines go in `check`, run in order).
///
/// A regular file is read by the workers themselves (``LineRangeReader``: each run owns the
/// lines that start in its byte range), so the caller's thread, which also runs whatever
/// consumes the records, reads nothing; other files are read in runs by the caller.
final class ParallelLineRecordSource: RecordSource {
  /// The record on one line (its bytes, borrowed for the call, and its number), if any.
  typealias Parse = @Sendable (UnsafeBufferPointer<UInt8>, Int) throws(RecordingError) -> RecordingRecord?
  typealias Check = (RecordingRecord, Int) throws(RecordingError) -> Void
  /// Bytes a worker parses at a time: small enough that a few in flight stay a few megabytes.
  static let blockBytes = 1 << 17
  /// Runs parsed ahead of the caller: enough to keep every core busy.
  static let inFlight = 3

  private let lines: LineReader
  /// The workers' reader, and where the next run starts, for a regular file.
  private let ranges: LineRangeReader?
  private var nextOffset: Int64
  private let parse: Parse
  private let check: Check
  private var queue: [Block] = []
  /// The run being consumed, and where in it; its lines are numbered from `lineBase + 1`.
  private var current = Block(), index = 0, errorIndex = 0
  private var lineBase: Int
  private var atEnd = false
  private var lineNumber = 0, bytesConsumed: Int64 = 0

  /// A run of lines and, once a worker has parsed it, what they gave: their records in order,
  /// each record's line within the run (from 1), the errors with the index of the record they
  /// come before (their lines within the run too), and the run's line count.
  final class Block: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var records: [RecordingRecord] = []
    var lines: [Int] = []
    var errors: [(before: Int, line: Int, error: RecordingError)] = []
    var lineCount = 0
    /// The file offset after the run: the reader's progress once it is consumed.
    var end: Int64 = 0
  }

  /// Whether runs are parsed on worker threads; false parses each run on the caller's thread
  /// when it is needed (for callers that already run one reader a core).
  private let parallel: Bool

  init(lines: LineReader, parse: @escaping Parse, check: @escaping Check, parallel: Bool = true) {
    self.parallel = parallel
    self.lines = lines
    self.parse = parse
    self.check = check
    lineBase = lines.lineNumber
    nextOffset = lines.offset
    // Positional reads start after a line: the header's.
    ranges = nextOffset > 0 ? LineRangeReader(path: lines.path) : nil
  }

  var location: (path: String, line: Int) { (lines.path, lineNumber) }
  var progress: (read: Int64, total: Int64) { (bytesConsumed, lines.size) }

  func next() throws(RecordingError) -> RecordingRecord? {
    while true {
      if errorIndex < current.errors.count, current.errors[errorIndex].before == index {
        let failure = current.errors[errorIndex]
        lineNumber = lineBase + failure.line
        errorIndex += 1
        throw failure.error.movedDown(by: lineBase)
      }
      if index < current.records.count {
        lineNumber = lineBase + current.lines[index]
        index += 1
        try check(current.records[index - 1], lineNumber)
        return current.records[index - 1]
      }
      try fill()
      guard !queue.isEmpty else { return nil }
      let consumed = current
      lineBase += consumed.lineCount
      current = queue.removeFirst()
      // Freeing a run's records costs as much as reading them: done off the caller's thread.
      if parallel { DispatchQueue.global().async { withExtendedLifetime(consumed) {} } }
      current.done.wait()
      bytesConsumed = current.end
      (index, errorIndex) = (0, 0)
      try fill()
    }
  }

  /// Starts workers on the next runs of lines until ``inFlight`` are under way.
  private func fill() throws(RecordingError) {
    while queue.count < (parallel ? Self.inFlight : 1) && !atEnd {
      let block = Block()
      let parse = self.parse
      if let ranges {
        guard nextOffset < ranges.size else {
          atEnd = true
          return
        }
        let range = nextOffset..<min(ranges.size, nextOffset + Int64(Self.blockBytes))
        nextOffset = range.upperBound
        block.end = range.upperBound
        queue.append(block)
        run {
          do throws(FileIOError) {
            let run = try ranges.lines(startingIn: range)
            Self.parseLines(run.text, from: run.start, parse, into: block)
          } catch {
            block.errors.append((0, 1, .unreadable(path: ranges.path, reason: error.reason)))
          }
          block.done.signal()
        }
      } else {
        let run: (text: [UInt8], firstLine: Int)?
        do { run = try lines.nextLines(bytes: Self.blockBytes) } catch {
          throw .unreadable(path: lines.path, reason: error.reason)
        }
        guard let run else {
          atEnd = true
          return
        }
        block.end = lines.offset
        queue.append(block)
        self.run {
          Self.parseLines(run.text, from: 0, parse, into: block)
          block.done.signal()
        }
      }
    }
  }

  /// `work` on a worker thread, or here and now when this source is not ``parallel``.
  private func run(_ work: @escaping @Sendable () -> Void) {
    if parallel { DispatchQueue.global().async(execute: work) } else { work() }
  }

  /// Each line of `text[start...]` (its `\r\n` or `\n` dropped) through `parse`, numbered from
  /// 1, into `block`.
  static func parseLines(_ text: [UInt8], from start: Int, _ parse: Parse, into block: Block) {
    text.withUnsafeBufferPointer { text in
      var start = start, line = 1
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
      block.lineCount = line - 1
    }
  }
}

extension RecordingError {
  /// The error with its line `lines` further down the file (a line numbered within a run).
  func movedDown(by lines: Int) -> RecordingError {
    guard case .badRecord(let path, let line, let field, let reason) = self, line > 0 else { return self }
    return .badRecord(path: path, line: line + lines, field: field, reason: reason)
  }
}
