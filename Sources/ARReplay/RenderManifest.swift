import ARFiles
import ARRecording
import Foundation

/// The recordings a batch of overlay renders draws: a JSON Lines file, one recording a line with
/// its scene and outputs, as `arscene render --manifest` reads it.
///
/// Each line is an object of strings:
///
/// ```json
/// {"recording": "walks/a.jsonl", "scene": "site.json", "frames": "out/a", "video": "out/a.mp4"}
/// ```
///
/// `recording` is required, and at least one of `frames` (the folder of `frame_NNNNNN.png`) and
/// `video` (an H.264 MP4); `scene` may be left to the command's `--scene`. Relative paths are
/// resolved against the manifest's folder. Blank lines and lines starting with `#` are skipped.
/// A key this reader does not know is refused, not ignored, and so is an output two lines name:
/// each frame and video of a batch is written by exactly one of its tasks.
public struct RenderManifest: Sendable, Equatable {
  /// One recording to draw and where its drawing goes.
  public struct Entry: Sendable, Equatable {
    /// The recording (any layout `RecordingReader` reads), resolved against the manifest's folder.
    public var recording: String
    /// The scene drawn over it; nil when the line leaves it to the command.
    public var scene: String?
    /// The folder its frames are written to, as `frame_NNNNNN.png`.
    public var frames: String?
    /// The H.264 MP4 of its frames.
    public var video: String?
    /// The line of the manifest (from 1), for messages.
    public var line: Int

    /// Line `line`'s recording at `recording`, drawn with `scene` to `frames` and `video`.
    public init(recording: String, scene: String?, frames: String?, video: String?, line: Int) {
      (self.recording, self.scene, self.frames, self.video, self.line) = (
        recording, scene, frames, video, line
      )
    }
  }

  /// The manifest's recordings in its order; a shard takes those whose 0-based index is I modulo N.
  public var entries: [Entry]

  /// The keys a line may hold.
  static let keys: Set<String> = ["recording", "scene", "frames", "video"]

  /// Reads the manifest at `path`.
  ///
  /// - Throws: `RecordingError.unreadable` when it cannot be read, `.badRecord` naming the line
  ///   and key of a line that is not an object of strings, lacks `recording` or an output, holds
  ///   an unknown key or names an output an earlier line names.
  public static func read(path: String) throws(RecordingError) -> RenderManifest {
    let reader: LineReader
    do { reader = try LineReader(path: path) } catch { throw .unreadable(path: path, reason: error.reason) }
    let folder = RecordingFormat.parent(path)
    var entries: [Entry] = []
    var writers: [String: Int] = [:]
    while true {
      let bytes: [UInt8]?
      do { bytes = try reader.next() } catch { throw .unreadable(path: path, reason: error.reason) }
      guard let bytes else { break }
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty, !text.hasPrefix("#") else { continue }
      let entry = try parse(text, line: reader.lineNumber, path: path, folder: folder)
      for output in [entry.frames, entry.video].compactMap({ $0 }) {
        let key = (output as NSString).standardizingPath
        if let earlier = writers[key] {
          throw .badRecord(
            path: path, line: entry.line, field: output == entry.video ? "video" : "frames",
            reason: "\(output) is also line \(earlier)'s output: each output must have one writer")
        }
        writers[key] = entry.line
      }
      entries.append(entry)
    }
    return RenderManifest(entries: entries)
  }

  /// The entry of line `line`'s `text`, its paths resolved against `folder`.
  static func parse(_ text: String, line: Int, path: String, folder: String) throws(RecordingError) -> Entry {
    func fail(_ field: String, _ reason: String) -> RecordingError {
      .badRecord(path: path, line: line, field: field, reason: reason)
    }
    let object: [String: String]
    do { object = try JSONDecoder().decode([String: String].self, from: Data(text.utf8)) } catch {
      let failure = JSONDecodingFailure(error, bytes: Array(text.utf8))
      throw fail(
        failure.field ?? "line",
        "expected an object of strings ({\"recording\": …, \"frames\": …}): \(failure.reason)")
    }
    if let unknown = object.keys.filter({ !keys.contains($0) }).sorted().first {
      throw fail(unknown, "unknown key (expected \(keys.sorted().joined(separator: ", ")))")
    }
    for (key, value) in object where value.isEmpty || value.contains("\0") {
      throw fail(key, "expected a path")
    }
    guard let recording = object["recording"] else { throw fail("recording", "missing") }
    guard object["frames"] != nil || object["video"] != nil else {
      throw fail("frames", "missing: a line needs frames, video or both")
    }
    /// As `ValidationManifest` resolves its lines.
    func resolved(_ value: String?) -> String? {
      value.map { $0.hasPrefix("/") ? $0 : RecordingFormat.join(folder, $0) }
    }
    return Entry(
      recording: resolved(recording)!, scene: resolved(object["scene"]), frames: resolved(object["frames"]),
      video: resolved(object["video"]), line: line)
  }
}
