import ARMath

/// Why a trajectory cannot be read or compared. Every case names the file and, where there is
/// one, the line and the field.
public enum TrajectoryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file cannot be read or written.
  case unreadable(path: String, reason: String)
  /// A line does not hold what the format needs.
  case badLine(path: String, line: Int, field: String, reason: String)
  /// The two trajectories cannot be compared (no pose pairs in time, too few to align).
  case incomparable(String)
  /// A parameter of a metric is outside its domain (a delta of zero frames).
  case invalidParameter(name: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .badLine(let path, let line, let field, let reason): "\(path):\(line): \(field): \(reason)"
    case .incomparable(let reason): reason
    case .invalidParameter(let name, let reason): "\(name): \(reason)"
    }
  }

  /// A number error of `NumberText` as a line error of `path`.
  init(_ error: NumberTextError, path: String, line: Int) {
    switch error {
    case .wrongCount(_, _, let expected, let got):
      self = .badLine(
        path: path, line: line, field: "line", reason: "expected \(expected) columns, got \(got)")
    case .notANumber(_, _, let field, let text):
      self = .badLine(
        path: path, line: line, field: "field \(field)", reason: "'\(text.quotedForMessage)' is not a number")
    case .notFinite(_, _, let field, let text):
      self = .badLine(
        path: path, line: line, field: "field \(field)", reason: "'\(text.quotedForMessage)' is not finite")
    }
  }
}
