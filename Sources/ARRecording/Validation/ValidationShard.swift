import Foundation

/// One part of a validation run over many recordings: which part it is, and the summary report
/// of each recording it validated. `arscene validate --manifest M --shard I/N` writes one;
/// `arscene validate --merge` combines them (``ValidationBatchSummary``).
public struct ValidationShard: Codable, Sendable {
  /// `I/N`.
  public var shard: String
  /// Each recording (as the manifest names it) and its report's summary.
  public var recordings: [Entry]

  /// One recording's result.
  public struct Entry: Codable, Sendable {
    /// The recording, as the manifest names it.
    public var recording: String
    /// Its report's summary.
    public var report: ValidationReport

    /// The result `report` of `recording`.
    public init(recording: String, report: ValidationReport) {
      self.recording = recording
      self.report = report
    }
  }

  /// Shard `shard` (`I/N`) holding `recordings`.
  public init(shard: String, recordings: [Entry]) {
    self.shard = shard
    self.recordings = recordings
  }
}
