/// Paths of the committed test fixtures in Tests/Fixtures, found from this source file, so tests
/// work from any working directory.
public enum Fixtures {
  /// The Tests/Fixtures folder.
  public static let root: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // ARTestSupport/Fixtures.swift
    return parts.joined(separator: "/") + "/Fixtures"
  }()

  /// The path of `relative` inside Tests/Fixtures.
  public static func path(_ relative: String) -> String { root + "/" + relative }
}
