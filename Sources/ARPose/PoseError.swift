/// Why a pose or plane cannot be estimated: degenerate or invalid input, named.
public enum PoseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Input values out of range or not finite (`field` names which).
  case invalidInput(field: String, reason: String)
  /// Geometry that does not determine the answer: collinear or repeated corners, too few points.
  case degenerate(String)
  /// A file that cannot be read, with the line (0 when not line-based) and the reason.
  case badFile(path: String, line: Int, reason: String)

  public var description: String {
    switch self {
    case .invalidInput(let field, let reason): "\(field): \(reason)"
    case .degenerate(let why): why
    case .badFile(let path, let line, let reason):
      line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)"
    }
  }
}
