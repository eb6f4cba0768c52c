import Foundation

/// Whole-file reads and atomic writes, with errors that name the file.
public enum FileIO {
  /// The bytes of the file at `path`.
  public static func read(_ path: String) throws(FileIOError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path: path)
    }
    guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "is a directory") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "permission denied or I/O error")
    }
    return [UInt8](data)
  }

  /// Writes `bytes` to `path` atomically: into a temporary file in the same directory, then
  /// renamed over `path`, so a reader never sees half a file and a failure leaves nothing behind.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileIOError) {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .unwritable(path: path, reason: (error as NSError).localizedDescription)
    }
  }
}
