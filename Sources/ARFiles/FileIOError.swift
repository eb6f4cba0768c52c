/// Why a file could not be read or written.
public enum FileIOError: Error, Equatable, Sendable, CustomStringConvertible {
  case missing(path: String)
  case unreadable(path: String, reason: String)
  case unwritable(path: String, reason: String)

  public var description: String {
    switch self {
    case .missing(let path): "\(path): no such file"
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .unwritable(let path, let reason): "\(path): cannot write: \(reason)"
    }
  }
}
