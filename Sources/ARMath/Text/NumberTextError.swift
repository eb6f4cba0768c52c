/// Why text does not hold the numbers expected. `line` is 1-based, or `nil` for a single value
/// such as a command-line option; `field` is the 1-based position in the line or list.
public enum NumberTextError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The line or list has the wrong number of values.
  case wrongCount(source: String, line: Int?, expected: Int, got: Int)
  /// A field is not a number.
  case notANumber(source: String, line: Int?, field: Int, text: String)
  /// A field is NaN or infinite.
  case notFinite(source: String, line: Int?, field: Int, text: String)

  public var description: String {
    switch self {
    case .wrongCount(let source, let line, let expected, let got):
      "\(Self.place(source, line)): expected \(expected) numbers, got \(got)"
    case .notANumber(let source, let line, let field, let text):
      "\(Self.place(source, line)): field \(field) '\(text.quotedForMessage)' is not a number"
    case .notFinite(let source, let line, let field, let text):
      "\(Self.place(source, line)): field \(field) '\(text.quotedForMessage)' is not a finite number"
    }
  }

  private static func place(_ source: String, _ line: Int?) -> String {
    line.map { "\(source):\($0)" } ?? source
  }
}
