import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when
/// the value goes away.
public final class TemporaryFolder {
  /// The folder's path.
  public let path: String

  public init() throws {
    path = NSTemporaryDirectory() + "arscene-test-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `text` to `name` in the folder and returns its path.
  @discardableResult
  public func write(_ text: String, to name: String) throws -> String {
    let file = path + "/" + name
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }
}
