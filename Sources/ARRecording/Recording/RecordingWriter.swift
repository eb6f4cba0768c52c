import ARFiles

/// Writes ARScene's recording format, streamed and atomic: the header first, then records in
/// time order; the file appears at its path only when ``finish()`` succeeds.
public final class RecordingWriter {
  private let file: AtomicFileWriter
  private var buffer = ""
  private var lastTime = -Double.infinity

  /// Starts a recording at `path` with `header`.
  public init(path: String, header: RecordingHeader) throws(RecordingError) {
    do { file = try AtomicFileWriter(path: path) } catch {
      throw .unreadable(path: path, reason: error.description)
    }
    buffer = RecordingLineCodec.line(header) + "\n"
  }

  /// Appends `record`, which must not be earlier than the one before.
  public func write(_ record: RecordingRecord) throws(RecordingError) {
    precondition(record.time >= lastTime, "records are written in time order")
    lastTime = record.time
    buffer += RecordingLineCodec.line(record)
    buffer += "\n"
    if buffer.utf8.count > 1 << 16 { try flush() }
  }

  /// Writes what is buffered and renames the file into place.
  public func finish() throws(RecordingError) {
    try flush()
    do { try file.commit() } catch { throw .unreadable(path: file.path, reason: error.description) }
  }

  private func flush() throws(RecordingError) {
    do { try file.write(buffer) } catch { throw .unreadable(path: file.path, reason: error.description) }
    buffer = ""
  }
}
