/// Where ``RecordingOverlay/render(_:to:progress:)`` writes a recording's frames: PNG files in a
/// folder, an H.264 video through ffmpeg, or both.
public struct RecordingOutput: Sendable {
  /// The folder of `frame_NNNNNN.png` files, by frame index (created if missing). A frame whose
  /// file is already there is kept, not drawn again: a run stopped half-way resumes.
  public var folder: String?
  /// The video to write (MP4, H.264).
  public var video: String?
  /// The video's frames per second (default: 30 over the overlay's `every`).
  public var videoFramesPerSecond: Double?
  /// zlib level of the frames' PNGs (0–9): a camera image's noise compresses little, so 1.
  public var framePNGLevel = 1
  /// Also write each frame's content alone (`overlay_NNNNNN.png`, straight alpha) and its depth
  /// (`depth_NNNNNN.png`, 16-bit millimetres along the view axis) beside it, at this PNG level.
  public var layers = false
  /// zlib level of the layers' PNGs (0–9).
  public var layersPNGLevel = 2
  /// Write the layers' content with premultiplied alpha instead of straight.
  public var premultiplied = false

  /// Frames to `folder`, a video to `video`, or both.
  public init(folder: String? = nil, video: String? = nil) {
    self.folder = folder
    self.video = video
  }

  /// The file of frame `index` of `kind` (`frame`, `overlay`, `depth`) in ``folder``.
  public func path(of index: Int, _ kind: String = "frame") -> String? {
    folder.map { $0 + "/\(kind)_" + String(format: "%06d", index) + ".png" }
  }
}

/// What rendering a recording's frames did.
public struct RecordingRenderSummary: Sendable, Equatable {
  /// Frames drawn and written (or, without a folder, drawn for the video).
  public var rendered = 0
  /// Frames whose files were already in the folder.
  public var kept = 0
  /// Why each frame or tap that could not be used was skipped (``RecordingOverlay/lenient``).
  public var skipped: [String] = []

  /// Nothing done yet.
  public init() {}
}
