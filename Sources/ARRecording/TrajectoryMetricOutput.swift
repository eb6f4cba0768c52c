import ARMath

/// The JSON both trajectory metrics print: the statistics at the top level, then the alignment
/// and the poses skipped.
enum TrajectoryMetricOutput {
  static func encode(
    _ statistics: ErrorStatistics, _ alignment: AlignedTrajectories.AppliedAlignment, _ skipped: Int,
    to encoder: any Encoder
  ) throws {
    try statistics.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(alignment, forKey: .alignment)
    try container.encode(skipped, forKey: .skipped)
  }

  enum CodingKeys: String, CodingKey { case alignment, skipped }
}
