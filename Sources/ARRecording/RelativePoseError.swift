import ARMath

/// The relative pose error of an estimated trajectory against a reference, as evo's `evo_rpe`
/// computes it: the trajectories paired and aligned (``AlignedTrajectories``), pose pairs
/// `(i, j)` chosen on the estimate `delta` apart, and for each the error of
/// `E = (Qᵢ⁻¹·Qⱼ)⁻¹ · (Pᵢ⁻¹·Pⱼ)` (`Q` the reference, `P` the estimate): the drift over `delta`.
public struct RelativePoseError: Encodable, Sendable {
  /// How far apart the two poses of a pair are.
  public enum DeltaUnit: String, Sendable, CaseIterable, Encodable {
    /// In poses.
    case frames
    /// In metres travelled along the estimate.
    case metres
  }

  /// The statistics of the errors (in the relation's units).
  public var statistics: ErrorStatistics
  /// Every error, in order of the pairs.
  public var errors: [Double]
  /// The alignment that was applied.
  public var alignment: AlignedTrajectories.AppliedAlignment
  /// Poses the files' readers skipped as bad (`--lenient`); 0 when reading was strict.
  public var skipped = 0

  /// The errors of `pair` over `delta`.
  ///
  /// - Parameters:
  ///   - pair: The paired and aligned trajectories.
  ///   - relation: What each error measures.
  ///   - delta: The distance between the poses of a pair (> 0), in `unit`.
  ///   - unit: Frames, or metres along the estimate's path.
  ///   - allPairs: Every pose starts a pair, instead of consecutive, non-overlapping ones.
  ///   - tolerance: With `allPairs` in metres, how far (a fraction of `delta`) a pair's path
  ///     may be from `delta` (evo's 0.1).
  /// - Throws: ``TrajectoryError/invalidParameter(name:reason:)`` for a `delta` that is not
  ///   positive (or, in frames, not a whole number); ``TrajectoryError/incomparable(_:)`` when
  ///   no pair is `delta` apart.
  public init(
    _ pair: AlignedTrajectories, relation: PoseRelation = .trans, delta: Double = 1,
    unit: DeltaUnit = .frames,
    allPairs: Bool = false, tolerance: Double = 0.1
  ) throws(TrajectoryError) {
    guard delta > 0, delta < 1e15, unit == .metres || delta == delta.rounded() else {
      throw .invalidParameter(
        name: "delta",
        reason: "expected a positive \(unit == .frames ? "whole number of frames" : "distance"), got \(delta)"
      )
    }
    guard tolerance >= 0, tolerance.isFinite else {
      throw .invalidParameter(name: "tolerance", reason: "expected a fraction ≥ 0, got \(tolerance)")
    }
    let (q, p) = (pair.reference.poses, pair.estimate.poses)
    let indices = Self.pairs(p, delta: delta, unit: unit, allPairs: allPairs, tolerance: tolerance)
    guard !indices.isEmpty else {
      throw .incomparable("no pose pairs are \(delta) \(unit.rawValue) apart among \(p.count) poses")
    }
    if let qw = pair.reference.written, let pw = pair.estimate.written {
      // KITTI's matrices as written, inverted as evo inverts them (see `WrittenPose`).
      errors = indices.map { i, j in relation.error((qw[i].inverse * qw[j]).inverse * (pw[i].inverse * pw[j]))
      }
    } else {
      errors = indices.map { i, j in relation.error((q[i].inverse * q[j]).inverse * (p[i].inverse * p[j])) }
    }
    statistics = ErrorStatistics(errors)
    alignment = pair.alignment
  }

  /// The index pairs evo's `id_pairs_from_delta` chooses on `poses`.
  static func pairs(
    _ poses: [RigidTransform<Double>], delta: Double, unit: DeltaUnit, allPairs: Bool, tolerance: Double
  ) -> [(Int, Int)] {
    switch (unit, allPairs) {
    case (.frames, false):
      let step = max(1, Int(delta))
      let ids = Array(stride(from: 0, to: poses.count, by: step))
      return Array(zip(ids, ids.dropFirst()))
    case (.frames, true):
      let step = Int(delta)
      return (0..<poses.count).compactMap { i in i + step < poses.count ? (i, i + step) : nil }
    case (.metres, false):
      var ids = [0], path = 0.0
      for i in poses.indices.dropFirst() {
        path += (poses[i].translation - poses[i - 1].translation).length
        if path >= delta {
          ids.append(i)
          path = 0
        }
      }
      return poses.isEmpty ? [] : Array(zip(ids, ids.dropFirst()))
    case (.metres, true):
      var distances = [0.0]
      for i in poses.indices.dropFirst() {
        distances.append(distances[i - 1] + (poses[i].translation - poses[i - 1].translation).length)
      }
      var result: [(Int, Int)] = []
      for i in 0..<max(0, distances.count - 1) {
        // The later pose whose path from here is nearest delta (the first on a tie).
        var best = i + 1
        for j in (i + 1)..<distances.count
        where abs(distances[j] - distances[i] - delta) < abs(distances[best] - distances[i] - delta) {
          best = j
        }
        if abs(distances[best] - distances[i] - delta) <= delta * tolerance { result.append((i, best)) }
      }
      return result
    }
  }

  /// As `arscene traj rpe` prints it: the statistics at the top level, `pairs`, the
  /// `alignment` and the poses `skipped`.
  public func encode(to encoder: any Encoder) throws {
    try TrajectoryMetricOutput.encode(statistics, alignment, skipped, to: encoder)
  }
}
