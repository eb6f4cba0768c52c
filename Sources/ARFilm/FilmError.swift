/// Why a film preset, a LUT or a film stage's parameter cannot be used. Every case names the
/// file (or `<preset>` for one built in code) and, where there is one, the line and the field.
public enum FilmError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file cannot be read.
  case unreadable(path: String, reason: String)
  /// The file is malformed: `line` is 0 where the fault has no one line (JSON names a field
  /// path such as `stages[2].grain.iso` instead).
  case invalidFile(path: String, line: Int, field: String, reason: String)
  /// A parameter outside its documented range.
  case invalidParameter(path: String, field: String, reason: String)
  /// No preset of that name among the shipped ones.
  case unknownPreset(String, known: [String])

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalidFile(let path, let line, let field, let reason):
      line > 0 ? "\(path):\(line): \(field): \(reason)" : "\(path): \(field): \(reason)"
    case .invalidParameter(let path, let field, let reason): "\(path): \(field): \(reason)"
    case .unknownPreset(let name, let known):
      "unknown film preset '\(name)' (known: \(known.joined(separator: ", ")); or give a preset file's path)"
    }
  }
}
