import ARMath

/// The absolute pose error of an estimated trajectory against a reference, as evo's `evo_ape`
/// computes it: the trajectories paired and aligned (``AlignedTrajectories``), then one error
/// per pair, of `E = estimate⁻¹ · reference`.
public struct AbsolutePoseError: Encodable, Sendable {
  /// The statistics of the errors (in the relation's units).
  public var statistics: ErrorStatistics
  /// Every error, in the pairs' time order.
  public var errors: [Double]
  /// The alignment that was applied.
  public var alignment: AlignedTrajectories.AppliedAlignment
  /// Poses the files' readers skipped as bad (`--lenient`); 0 when reading was strict.
  public var skipped = 0

  /// The errors of `pair`'s aligned estimate, measured as `relation` says.
  public init(_ pair: AlignedTrajectories, relation: PoseRelation = .trans) {
    errors = zip(pair.estimate.poses, pair.reference.poses).map { e, r in relation.error(e.inverse * r) }
    statistics = ErrorStatistics(errors)
    alignment = pair.alignment
  }

  /// As `arscene traj ape` prints it: the statistics at the top level (in the relation's
  /// units), `pairs`, the `alignment` and the poses `skipped`.
  public func encode(to encoder: any Encoder) throws {
    try TrajectoryMetricOutput.encode(statistics, alignment, skipped, to: encoder)
  }
}
