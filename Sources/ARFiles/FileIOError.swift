import ARMath

/// Why a file could not be read or written.
public enum FileIOError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file does not exist.
  case missing(path: String)
  /// The file cannot be read, and why.
  case unreadable(path: String, reason: String)
  /// The file cannot be written, and why.
  case unwritable(path: String, reason: String)

  public var description: String {
    switch self {
    case .missing(let path): "\(path.escapedForMessage): no such file"
    case .unreadable(let path, let reason): "\(path.escapedForMessage): cannot read: \(reason)"
    case .unwritable(let path, let reason): "\(path.escapedForMessage): cannot write: \(reason)"
    }
  }

  /// What went wrong, without the path: for errors of other types that name the file themselves.
  public var reason: String {
    switch self {
    case .missing: "no such file"
    case .unreadable(_, let reason): reason
    case .unwritable(_, let reason): "cannot write: \(reason)"
    }
  }
}
