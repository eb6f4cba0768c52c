/// Errors of the geodesy API: invalid input named by field.
public enum GeoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A coordinate field out of range or not finite.
  case invalidCoordinate(field: String, value: Double, reason: String)
  /// Input that leaves the problem without a unique answer (too few fixes, a degenerate sampling).
  case degenerate(String)
  /// A date outside the magnetic model's validity.
  case outOfValidity(String)
  /// Text or a time that is not a date.
  case invalidDate(String)
  /// A coefficient file that cannot be read.
  case badCoefficientFile(line: Int, reason: String)

  public var description: String {
    switch self {
    case .invalidCoordinate(let field, let value, let reason): "\(field) \(value) \(reason)"
    case .degenerate(let why): why
    case .outOfValidity(let why): why
    case .invalidDate(let why): why
    case .badCoefficientFile(let line, let reason): "line \(line): \(reason)"
    }
  }
}
