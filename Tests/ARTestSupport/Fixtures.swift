import ARMesh
import Foundation

/// Paths of the committed test fixtures in Tests/Fixtures, found from this source file, so tests
/// work from any working directory.
public enum Fixtures {
  /// The Tests/Fixtures folder.
  ///
  /// Finding it also lets file references reach the whole package (`FileReferences.allow`):
  /// fixtures reference files across its folders (a test's scene in a temporary folder names
  /// models in Tests/Fixtures and Scenes/models), as a team's own test suite would allow its
  /// repository. Temporary folders, where the confinement tests work, stay outside it.
  public static let root: String = {
    // Resolved, because the Oracles and Benchmarks packages compile this folder through a link.
    let fixtures = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
      .deletingLastPathComponent().deletingLastPathComponent()  // ARTestSupport/Fixtures.swift
      .appendingPathComponent("Fixtures")
    try? FileReferences.allow(
      folder: fixtures.deletingLastPathComponent().deletingLastPathComponent().path)
    return fixtures.path
  }()

  /// The path of `relative` inside Tests/Fixtures.
  public static func path(_ relative: String) -> String { root + "/" + relative }
}
