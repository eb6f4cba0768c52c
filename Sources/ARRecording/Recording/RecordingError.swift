/// Why a recording cannot be read or written. Every case names the file and, where there is
/// one, the line and the field.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file or folder cannot be read or written.
  case unreadable(path: String, reason: String)
  /// Not a recording this build knows (no known layout, an unknown version).
  case unknownFormat(path: String, reason: String)
  /// A record does not hold what its format needs (`line` 0: the record is a file, not a line).
  case badRecord(path: String, line: Int, field: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .unknownFormat(let path, let reason): "\(path): \(reason)"
    case .badRecord(let path, let line, let field, let reason):
      line > 0 ? "\(path):\(line): \(field): \(reason)" : "\(path): \(field): \(reason)"
    }
  }
}
