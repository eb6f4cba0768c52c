import ARFiles

/// ARScene's recording file (JSON Lines, ``RecordingLineCodec``): read as a stream of records,
/// written through ``RecordingWriter``.
enum JSONLinesRecording {
  static func open(
    path: String, log: ReadLog, parallel: Bool = true
  ) throws(RecordingError) -> (RecordingHeader, [any RecordSource]) {
    let lines: LineReader
    do { lines = try LineReader(path: path) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    let first: [UInt8]?
    do { first = try lines.next() } catch { throw .unreadable(path: path, reason: error.reason) }
    guard let first else { throw .unknownFormat(path: path, reason: "empty: no header line") }
    let header = try RecordingLineCodec.header(first, path: path)
    // Records are in time order across streams too, so that a reader can replay them as read:
    // checked in order, while the lines are parsed on every core.
    var last = -Double.infinity
    let source = ParallelLineRecordSource(
      lines: lines,
      parse: { bytes, line throws(RecordingError) in
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        return try RecordingLineCodec.record(bytes, path: path, line: line)
      },
      check: { record, line throws(RecordingError) in
        guard record.time >= last else {
          throw .badRecord(
            path: path, line: line, field: "t",
            reason: "\(record.time) s is before the record above (\(last) s): records must be in time order")
        }
        last = record.time
      }, parallel: parallel)
    return (header, [source])
  }
}
