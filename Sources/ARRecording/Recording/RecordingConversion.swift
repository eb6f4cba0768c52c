import ARFiles
import Foundation

/// Converts a recording to ARScene's format or to a trajectory file, streamed and atomic, as
/// `arscene recording convert` does.
public enum RecordingConversion {
  /// What the output file is, by its name.
  public enum Target: Sendable, Equatable {
    /// ARScene's recording format (`.jsonl`).
    case recording
    /// The camera poses alone (`.tum`, `.euroc.csv`, `.kitti`).
    case trajectory(TrajectoryFormat)

    /// The target a file name says, or nil.
    public init?(path: String) {
      let name = path.lowercased()
      if name.hasSuffix(".jsonl") {
        self = .recording
      } else if name.hasSuffix(".tum") {
        self = .trajectory(.tum)
      } else if name.hasSuffix(".euroc.csv") {
        self = .trajectory(.euroc)
      } else if name.hasSuffix(".kitti") {
        self = .trajectory(.kitti)
      } else {
        return nil
      }
    }
  }

  /// What a conversion wrote.
  public struct Report: Encodable, Sendable {
    /// Records (or poses) written.
    public var written: Int
    /// Records read but skipped (see ``RecordingReader/skipped``), and why (the first 100).
    public var skipped: Int
    /// Why records were skipped, the first 100.
    public var warnings: [String]
  }

  /// Reads all of `reader` into `output`. Frame, depth and confidence paths are rewritten to
  /// stay right from the output's folder.
  ///
  /// - Throws: ``RecordingError`` from reading, or when the output cannot be written, or
  ///   has no poses for a trajectory. Nothing is left at `output` on failure.
  public static func convert(_ reader: RecordingReader, to output: String, target: Target)
    throws(RecordingError)
    -> Report
  {
    var written = 0
    switch target {
    case .recording:
      let writer = try RecordingWriter(
        path: output,
        header: RecordingHeader(
          source: reader.header.source, timeBase: reader.header.timeBase,
          description: reader.header.description))
      let rebase = PathRebase(
        from: reader.baseFolder, to: URL(fileURLWithPath: output).deletingLastPathComponent().path)
      try reader.forEach { record throws(RecordingError) in
        try writer.write(rebase.apply(record))
        written += 1
      }
      try writer.finish()
    case .trajectory(let format):
      let file: AtomicFileWriter
      do { file = try AtomicFileWriter(path: output) } catch {
        throw .unreadable(path: output, reason: error.description)
      }
      func put(_ text: String) throws(RecordingError) {
        do { try file.write(text) } catch { throw .unreadable(path: output, reason: error.description) }
      }
      var text = format.header
      try reader.forEach { record throws(RecordingError) in
        guard case .pose(let p) = record else { return }
        text += format.line(time: p.time, pose: p.worldFromCamera)
        written += 1
        if text.utf8.count > 1 << 16 {
          try put(text)
          text = ""
        }
      }
      guard written > 0 else { throw .unknownFormat(path: reader.path, reason: "no camera poses to write") }
      try put(text)
      do { try file.commit() } catch { throw .unreadable(path: output, reason: error.description) }
    }
    return Report(written: written, skipped: reader.skipped, warnings: reader.warnings)
  }
}
