/// Why a point file (``PointSet``) cannot be used.
public enum PointSetError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not JSON (`field` nil), or a field is missing or wrong (`points[3].radius`).
  case invalid(path: String, field: String?, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalid(let path, let field?, let reason): "\(path): \(field): \(reason)"
    case .invalid(let path, nil, let reason): "\(path): \(reason)"
    }
  }
}
