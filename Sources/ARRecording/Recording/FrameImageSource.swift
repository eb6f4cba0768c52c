import ARMath

/// Where a frame's image is: a file of its own, or a frame of a video.
public enum FrameImageSource: Sendable, Equatable {
  /// A PNG or JPEG file, relative to the recording.
  case file(String)
  /// Frame `frame` (0-based, in presentation order) of a video file relative to the recording.
  case video(path: String, frame: Int)
}
