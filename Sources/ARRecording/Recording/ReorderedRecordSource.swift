import ARMath

/// A source's records put back in time order within a few records: motion-sensor loggers write
/// each reading from a queue, and a reading can land a line after the one that followed it
/// (ios_logger's `Gyro.txt` of a real iPhone has two such pairs in 4,200 lines). Its time is
/// right, only its line is late: it is moved, with a note, rather than refused. A record more
/// than `window` lines late is still out of order, and the reader says so.
final class ReorderedRecordSource: RecordSource {
  private let source: any RecordSource
  private let window: Int
  private let log: ReadLog
  /// Records read ahead, in time order, with where each came from.
  private var pending: [(record: RecordingRecord, path: String, line: Int)] = []
  private var ended = false
  private(set) var location: (path: String, line: Int) = ("", 0)

  init(_ source: any RecordSource, window: Int = 8, log: ReadLog) {
    self.source = source
    self.window = window
    self.log = log
  }

  var progress: (read: Int64, total: Int64) { source.progress }

  func next() throws(RecordingError) -> RecordingRecord? {
    while !ended, pending.count <= window {
      guard let record = try source.next() else {
        ended = true
        break
      }
      let (path, line) = source.location
      // Sorted insertion from the back: nearly always the end.
      var at = pending.count
      while at > 0, record.time < pending[at - 1].record.time { at -= 1 }
      if at < pending.count {
        log.note(
          "\(path):\(line): t: \(record.time) s was written after the reading at \(pending[at].record.time) s; put in time order"
        )
      }
      pending.insert((record, path, line), at: at)
    }
    guard !pending.isEmpty else { return nil }
    let first = pending.removeFirst()
    location = (first.path, first.line)
    return first.record
  }
}
