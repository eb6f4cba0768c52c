/// What one task of a batch of overlay renders (`arscene render --manifest M --shard I/N`) did:
/// for each recording of its share, the frames it drew, the frames it found written, and its
/// video. Printed as JSON; re-running the task writes the same outputs, so this report is what
/// differs (frames found instead of drawn).
public struct RenderShardReport: Encodable, Sendable, Equatable {
  /// `I/N`.
  public var shard: String
  /// The share's recordings, in the manifest's order.
  public var recordings: [Entry]

  /// One recording's outputs.
  public struct Entry: Encodable, Sendable, Equatable {
    /// The recording, resolved against the manifest's folder.
    public var recording: String
    /// Its line in the manifest (from 1).
    public var line: Int
    /// Frames drawn and written (or, without a frames folder, drawn for the video).
    public var framesRendered: Int
    /// Frames whose files were already in the folder.
    public var framesKept: Int
    /// `written`, `kept` (there already, and `--resume` given), or nil without a video.
    public var video: String?
    /// Why each frame or tap that could not be used was skipped (`--lenient`).
    public var skipped: [String]

    enum CodingKeys: String, CodingKey {
      case recording, line, video, skipped
      case framesRendered = "frames_rendered"
      case framesKept = "frames_kept"
    }

    /// The outputs of manifest line `line`, drawing `recording`, as `summary` says and with its
    /// video `video` (`written`, `kept` or nil).
    public init(recording: String, line: Int, summary: RecordingRenderSummary, video: String?) {
      self.recording = recording
      self.line = line
      framesRendered = summary.rendered
      framesKept = summary.kept
      self.video = video
      skipped = summary.skipped
    }
  }

  /// Shard `shard` (`I/N`) with `recordings`.
  public init(shard: String, recordings: [Entry]) {
    self.shard = shard
    self.recordings = recordings
  }
}
