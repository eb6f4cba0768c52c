import Foundation

/// Paths of the committed test fixtures in Tests/Fixtures, found from this source file, so tests
/// work from any working directory.
public enum Fixtures {
  /// The Tests/Fixtures folder.
  public static let root: String = {
    // Resolved, because the Oracles and Benchmarks packages compile this folder through a link.
    URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
      .deletingLastPathComponent().deletingLastPathComponent()  // ARTestSupport/Fixtures.swift
      .appendingPathComponent("Fixtures").path
  }()

  /// The path of `relative` inside Tests/Fixtures.
  public static func path(_ relative: String) -> String { root + "/" + relative }
}
