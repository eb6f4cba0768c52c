import ARFiles
import ARMath

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
