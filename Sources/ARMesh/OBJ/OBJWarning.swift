import ARMath

/// A statement that was read but not used, or a lenient-mode fallback.
public struct OBJWarning: Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// 1-based line (0 when not tied to a line).
  public var line: Int
  /// What happened.
  public var message: String

  public var description: String {
    line > 0 ? "\(path):\(line): warning: \(message)" : "\(path): warning: \(message)"
  }
}
