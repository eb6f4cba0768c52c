/// What a reader skipped and why: records a layout marks invalid (an iOS fix with a negative
/// accuracy), and with `lenient` bad records, each a warning naming file, line and field.
final class ReadLog {
  let lenient: Bool
  private(set) var skipped = 0
  private(set) var warnings: [String] = []
  /// Warnings kept in full; the rest are only counted.
  static let keptWarnings = 100

  init(lenient: Bool) { self.lenient = lenient }

  /// Notes a record skipped for `reason` (`path:line: field: why`).
  func skip(_ reason: String) {
    skipped += 1
    if warnings.count < Self.keptWarnings { warnings.append(reason) }
  }

  /// Notes something read as it is but worth knowing (a repeated timestamp), without skipping.
  func note(_ warning: String) {
    if warnings.count < Self.keptWarnings { warnings.append(warning) }
  }

  /// Skips the record of `error` when lenient; otherwise throws it.
  func tolerate(_ error: RecordingError) throws(RecordingError) {
    guard lenient, case .badRecord = error else { throw error }
    skip(error.description)
  }
}
