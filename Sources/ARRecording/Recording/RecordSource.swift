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
