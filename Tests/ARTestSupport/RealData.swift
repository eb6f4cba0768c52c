import Foundation

/// The real third-party files in `../shared/data/real` beside the clone (each folder with its
/// SOURCE.txt): CI has them; an app team's clone does not, and tests that read them are skipped,
/// saying why.
public enum RealData {
  /// The folder, whether or not it exists.
  public static let root: String =
    URL(fileURLWithPath: Fixtures.root).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data/real").path

  /// Whether the real data are there.
  public static var available: Bool { FileManager.default.fileExists(atPath: root + "/README.md") }

  /// Why a test that needs them is skipped, for
  /// `.enabled(if: RealData.available, Comment(rawValue: RealData.absent))`.
  public static let absent = "../shared/data/real is absent (a clone without shared/): real-data test skipped"

  /// The path of `relative` inside the folder.
  public static func path(_ relative: String) -> String { root + "/" + relative }
}
