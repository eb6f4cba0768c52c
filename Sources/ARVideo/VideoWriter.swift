import ARFiles
import ARImage
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes frames to an H.264 MP4 through ffmpeg, fed raw RGBA on a pipe (no image files in
/// between), atomically: the video appears at its path only when ``finish()`` succeeds.
///
/// The path is held to what every output is (`OutputTarget`: a regular file or nothing, none of
/// the inputs, the replaced file's mode or the umask's). A failed encode is an error, never a
/// file: ffmpeg's exit status is checked and so is the written MP4's box structure (a `moov`
/// box, which ffmpeg can fail to write on a full disk and still exit with 0). While it runs, the
/// temporary file is known to `InFlightFiles` and ffmpeg to `ChildProcesses`, so a process
/// stopped early removes the one and stops the other.
public final class VideoWriter {
  /// The video file.
  public let path: String
  /// The video's size, pixels.
  public let width: Int, height: Int
  private let temporary: String
  private let permissions: OutputTarget.Permissions
  private let process: Process
  private let input: FileHandle
  private let errors: Pipe
  private var finished = false
  /// What ffmpeg wrote to its standard error, read once it has exited.
  private lazy var ffmpegSaid = String(
    decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

  /// Starts a video of `width × height` pixels (even numbers: H.264's 4:2:0 halves them) at
  /// `framesPerSecond`.
  /// - Throws: ``VideoError/unwritable(path:reason:)`` when the path may not be written (see
  ///   above), its folder is missing or read-only, or ffmpeg cannot start.
  public init(path: String, width: Int, height: Int, framesPerSecond: Double) throws(VideoError) {
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw .unwritable(path: path, reason: "H.264 needs an even width and height, got \(width)×\(height)")
    }
    guard framesPerSecond > 0, framesPerSecond.isFinite else {
      throw .unwritable(path: path, reason: "frames per second must be positive, got \(framesPerSecond)")
    }
    self.path = path
    (self.width, self.height) = (width, height)
    do { permissions = try OutputTarget.check(path) } catch {
      throw .unwritable(path: path, reason: error.reason)
    }
    temporary = try Self.makeTemporary(beside: path)
    let ffmpeg = Process()
    process = ffmpeg
    errors = Pipe()
    let pipe = Pipe()
    do {
      process.executableURL = try FFmpeg.tool("ffmpeg")
      process.arguments = [
        "-nostdin", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
        "-r",
        "\(framesPerSecond)",
        "-i", "pipe:0", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4",
        temporary,
      ]
      process.standardInput = pipe
      process.standardOutput = FileHandle.nullDevice
      process.standardError = errors
      try ChildProcesses.start {
        try ffmpeg.run()
        return ffmpeg.processIdentifier
      }
    } catch {
      unlink(temporary)
      InFlightFiles.remove(temporary)
      if let error = error as? VideoError { throw error }
      throw .unwritable(path: path, reason: "cannot run ffmpeg: \(error)")
    }
    input = pipe.fileHandleForWriting
  }

  /// A new empty file beside `path` for ffmpeg to fill: made here, so a missing or read-only
  /// folder is a clear error before any frame is rendered.
  private static func makeTemporary(beside path: String) throws(VideoError) -> String {
    let folder = PathNames.folder(of: path)
    let name = (path as NSString).lastPathComponent
    let template = (folder.isEmpty ? "." : folder) + "/.\(name).tmp-XXXXXX.mp4"
    do {
      let (descriptor, temporary) = try InFlightFiles.makeTemporary(
        for: path, template: template, suffixLength: 4)
      close(descriptor)
      return temporary
    } catch {
      throw .unwritable(path: path, reason: error.reason)
    }
  }

  deinit {
    if !finished {
      try? input.close()
      process.waitUntilExit()
      ChildProcesses.remove(process.processIdentifier)
      unlink(temporary)
      InFlightFiles.remove(temporary)
    }
  }

  /// Appends one frame of the video's size.
  /// - Throws: ``VideoError/unwritable(path:reason:)`` with ffmpeg's own message when it has
  ///   stopped reading (it failed, or was stopped).
  public func append(_ image: RGBA8Image) throws(VideoError) {
    guard image.width == width, image.height == height else {
      throw .unwritable(
        path: path, reason: "a frame of \(image.width)×\(image.height) in a \(width)×\(height) video")
    }
    do {
      try image.pixels.withUnsafeBytes { raw in try input.write(contentsOf: Data(raw)) }
    } catch {
      try? input.close()
      process.waitUntilExit()
      throw .unwritable(path: path, reason: "ffmpeg stopped reading frames: \(ffmpegMessage())")
    }
  }

  /// Finishes the video and moves it into place.
  /// - Throws: ``VideoError/unwritable(path:reason:)`` when ffmpeg failed, the MP4 it wrote is
  ///   not finished, or the path may no longer be written; the temporary file is removed.
  public func finish() throws(VideoError) {
    finished = true
    defer {
      unlink(temporary)
      InFlightFiles.remove(temporary)
    }
    try? input.close()
    process.waitUntilExit()
    ChildProcesses.remove(process.processIdentifier)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw .unwritable(path: path, reason: "ffmpeg failed: \(ffmpegMessage())")
    }
    if let problem = MP4Boxes.problem(inFileAt: temporary) {
      throw .unwritable(path: path, reason: problem + (ffmpegFirstLine.map { " (ffmpeg: \($0))" } ?? ""))
    }
    do { try OutputTarget.check(path) } catch { throw .unwritable(path: path, reason: error.reason) }
    let descriptor = open(temporary, O_RDONLY)
    if descriptor >= 0 {
      permissions.apply(to: descriptor)
      close(descriptor)
    }
    guard rename(temporary, path) == 0 else {
      throw .unwritable(
        path: path, reason: "cannot move the video into place: \(String(cString: strerror(errno)))")
    }
  }

  /// The first line ffmpeg wrote to its standard error, if it wrote one.
  private var ffmpegFirstLine: String? { ffmpegSaid.split(separator: "\n").first.map(String.init) }

  /// The first line ffmpeg wrote to its standard error, or how it ended.
  private func ffmpegMessage() -> String {
    if let line = ffmpegFirstLine { return line }
    if process.terminationReason == .uncaughtSignal {
      return "stopped by signal \(process.terminationStatus)"
    }
    return "exit status \(process.terminationStatus)"
  }
}
