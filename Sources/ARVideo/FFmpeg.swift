import Foundation

/// Finds and runs Debian's ffmpeg and ffprobe: the one place ARScene touches an external
/// program for video.
enum FFmpeg {
  /// The tool's path, from `PATH` (then /usr/bin).
  static func tool(_ name: String) throws(VideoError) -> URL {
    let directories =
      (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + [
        "/usr/bin"
      ]
    for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
      return URL(fileURLWithPath: directory + "/" + name)
    }
    throw .missingTool(name)
  }

  /// Width and height of the first video stream of `path`.
  static func size(of path: String) throws(VideoError) -> (width: Int, height: Int) {
    let probe = Process()
    probe.executableURL = try tool("ffprobe")
    probe.arguments = [
      "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x",
      path,
    ]
    let out = Pipe(), err = Pipe()
    (probe.standardOutput, probe.standardError) = (out, err)
    do { try probe.run() } catch { throw .unreadable(path: path, reason: "cannot run ffprobe: \(error)") }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "x").compactMap {
      Int($0)
    }
    guard probe.terminationStatus == 0, parts.count == 2, parts[0] > 0, parts[1] > 0 else {
      let reason = message.split(separator: "\n").first.map(String.init) ?? "no video stream"
      throw .unreadable(path: path, reason: reason)
    }
    return (parts[0], parts[1])
  }
}
