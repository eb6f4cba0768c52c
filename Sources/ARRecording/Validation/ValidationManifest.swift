import Foundation

/// The recordings a manifest lists: one path a line (relative to the manifest's folder), blank
/// lines and `#` comments skipped.
public enum ValidationManifest {
  /// The recordings `path` lists, each relative one resolved against the manifest's folder.
  /// - Throws: ``RecordingError`` when the manifest cannot be read.
  public static func read(path: String) throws(RecordingError) -> [String] {
    let lines = try LineRecordSource.allLines(path)
    let folder = RecordingFormat.parent(path)
    return lines.compactMap { bytes in
      let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
      return line.hasPrefix("/") ? line : RecordingFormat.join(folder, line)
    }
  }
}
