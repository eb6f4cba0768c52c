/// Why a video could not be read or written; every case names the file.
public enum VideoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// ffmpeg or ffprobe is not installed (Debian `ffmpeg`).
  case missingTool(String)
  /// The file cannot be read as a video, or has no frame of that number.
  case unreadable(path: String, reason: String)
  /// The video cannot be written.
  case unwritable(path: String, reason: String)

  public var description: String {
    switch self {
    case .missingTool(let tool): "\(tool) is not installed (Debian ffmpeg; Tools/bootstrap installs it)"
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .unwritable(let path, let reason): "\(path): \(reason)"
    }
  }
}
