import ARFiles
import ARImage
import Foundation

/// Writes frames to an H.264 MP4 through ffmpeg, fed raw RGBA on a pipe (no image files in
/// between), atomically: the video appears at its path only when ``finish()`` succeeds.
public final class VideoWriter {
  /// The video file.
  public let path: String
  public let width: Int, height: Int
  private let temporary: String
  private let process: Process
  private let input: FileHandle
  private let errors: Pipe
  private var finished = false

  /// Starts a video of `width × height` pixels (even numbers: H.264's 4:2:0 halves them) at
  /// `framesPerSecond`.
  public init(path: String, width: Int, height: Int, framesPerSecond: Double) throws(VideoError) {
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw .unwritable(path: path, reason: "H.264 needs an even width and height, got \(width)×\(height)")
    }
    guard framesPerSecond > 0, framesPerSecond.isFinite else {
      throw .unwritable(path: path, reason: "frames per second must be positive, got \(framesPerSecond)")
    }
    self.path = path
    (self.width, self.height) = (width, height)
    let folder = (path as NSString).deletingLastPathComponent
    temporary =
      (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp.mp4"
    process = Process()
    process.executableURL = try FFmpeg.tool("ffmpeg")
    process.arguments = [
      "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r",
      "\(framesPerSecond)",
      "-i", "-", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", temporary,
    ]
    let pipe = Pipe()
    errors = Pipe()
    process.standardInput = pipe
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    do { try process.run() } catch { throw .unwritable(path: path, reason: "cannot run ffmpeg: \(error)") }
    input = pipe.fileHandleForWriting
    InFlightFiles.add(temporary)
  }

  deinit {
    if !finished {
      try? input.close()
      process.waitUntilExit()
      try? FileManager.default.removeItem(atPath: temporary)
      InFlightFiles.remove(temporary)
    }
  }

  /// Appends one frame of the video's size.
  public func append(_ image: RGBA8Image) throws(VideoError) {
    guard image.width == width, image.height == height else {
      throw .unwritable(
        path: path, reason: "a frame of \(image.width)×\(image.height) in a \(width)×\(height) video")
    }
    do {
      try image.pixels.withUnsafeBytes { raw in try input.write(contentsOf: Data(raw)) }
    } catch { throw .unwritable(path: path, reason: "ffmpeg stopped reading: \(error)") }
  }

  /// Finishes the video and moves it into place.
  public func finish() throws(VideoError) {
    finished = true
    defer { InFlightFiles.remove(temporary) }
    try? input.close()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0 else {
      try? FileManager.default.removeItem(atPath: temporary)
      throw .unwritable(path: path, reason: "ffmpeg failed: \(message.split(separator: "\n").first ?? "")")
    }
    guard rename(temporary, path) == 0 else {
      try? FileManager.default.removeItem(atPath: temporary)
      throw .unwritable(path: path, reason: "cannot move the video into place")
    }
  }
}
