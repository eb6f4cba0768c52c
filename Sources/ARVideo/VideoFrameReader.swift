import ARFiles
import ARImage
import Foundation

/// Reads a video's frames in order as 8-bit RGBA, decoded by ffmpeg and streamed through a
/// pipe: one frame in memory at a time, whatever the video's length.
public final class VideoFrameReader {
  /// The video file.
  public let path: String
  /// The frames' size, pixels.
  public let width: Int, height: Int
  private var process: Process?
  private var pipe: FileHandle?
  /// The number of the next frame the pipe will give.
  private var next = 0
  private var last: (index: Int, image: RGBA8Image)?

  /// Opens `path` (MP4, M4V, MOV, anything ffmpeg decodes).
  public init(path: String) throws(VideoError) {
    guard FileManager.default.fileExists(atPath: path) else {
      throw .unreadable(path: path, reason: "no such file")
    }
    self.path = path
    InputFiles.noteRead(path)
    (width, height) = try FFmpeg.size(of: path)
    if let problem = ImageLimits.problem(width: width, height: height) {
      throw .unreadable(path: path, reason: problem)
    }
  }

  deinit { stop() }

  /// Frame `index` (0-based, in presentation order). Frames are read forwards; asking for an
  /// earlier one than the last starts decoding again from the beginning.
  public func frame(_ index: Int) throws(VideoError) -> RGBA8Image {
    if let last, last.index == index { return last.image }
    if index < next { stop() }
    if process == nil { try start() }
    let bytes = width * height * 4
    while true {
      guard let data = try? pipe?.read(upToCount: bytes), data.count == bytes else {
        stop()
        throw .unreadable(path: path, reason: "no frame \(index) (the video has \(next))")
      }
      defer { next += 1 }
      if next == index {
        let pixels = data.withUnsafeBytes { Array($0.bindMemory(to: SIMD4<UInt8>.self)) }
        let image = RGBA8Image(width: width, height: height, pixels: pixels)
        last = (index, image)
        return image
      }
    }
  }

  private func start() throws(VideoError) {
    let ffmpeg = Process()
    ffmpeg.executableURL = try FFmpeg.tool("ffmpeg")
    ffmpeg.arguments = [
      "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-vsync", "passthrough", "-",
    ]
    let out = Pipe()
    ffmpeg.standardOutput = out
    ffmpeg.standardError = FileHandle.nullDevice
    do {
      try ChildProcesses.start {
        try ffmpeg.run()
        return ffmpeg.processIdentifier
      }
    } catch { throw .unreadable(path: path, reason: "cannot run ffmpeg: \(error)") }
    (process, pipe, next) = (ffmpeg, out.fileHandleForReading, 0)
  }

  private func stop() {
    if let process, process.isRunning { process.terminate() }
    if let process {
      process.waitUntilExit()
      ChildProcesses.remove(process.processIdentifier)
    }
    (process, pipe) = (nil, nil)
  }
}
