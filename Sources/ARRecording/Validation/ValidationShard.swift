import Foundation

/// One part of a validation run over many recordings: which part it is, and the summary report
/// of each recording it validated. `arscene validate --manifest M --shard I/N` writes one;
/// `arscene validate --merge` combines them (``ValidationBatchSummary``).
public struct ValidationShard: Codable, Sendable {
  /// `I/N`.
  public var shard: String
  /// Each recording (as the manifest names it) and its report's summary.
  public var recordings: [Entry]

  public struct Entry: Codable, Sendable {
    public var recording: String
    public var report: ValidationReport

    public init(recording: String, report: ValidationReport) {
      self.recording = recording
      self.report = report
    }
  }

  public init(shard: String, recordings: [Entry]) {
    self.shard = shard
    self.recordings = recordings
  }
}
