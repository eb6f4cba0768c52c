import ARMath
import ARPose

/// An estimated trajectory paired with a reference by time (``TimeAssociation``) and aligned
/// onto it, as evo prepares both before `evo_ape` and `evo_rpe`.
public struct AlignedTrajectories: Sendable {
  /// The reference's paired poses.
  public var reference: Trajectory
  /// The estimate's paired poses, aligned: `estimate ↦ s·R·estimate + t`.
  public var estimate: Trajectory
  /// The alignment that was applied.
  public var alignment: AppliedAlignment

  /// The alignment applied to the estimate, as the JSON output has it.
  public struct AppliedAlignment: Encodable, Sendable {
    /// `none`, `se3`, `sim3`, `scale`, `posyaw`, or `origin` (no alignment, the first poses made
    /// to coincide).
    public var kind: String
    /// `R`, rows.
    public var rotation: [[Double]]
    /// `t`, metres.
    public var translation: [Double]
    /// `s`.
    public var scale: Double
  }

  /// Pairs and aligns.
  ///
  /// - Parameters:
  ///   - reference: The trajectory taken as true.
  ///   - estimate: The trajectory measured against it.
  ///   - alignment: How the estimate is brought onto the reference.
  ///   - alignOrigin: Without an alignment, move the estimate so its first pose is the
  ///     reference's (evo `--align_origin`).
  ///   - alignmentPoses: Align on the first this many pairs only (all when nil).
  ///   - gravity: The up axis for ``PoseAlignment/posyaw``.
  ///   - maxTimeDifference: The largest time difference of a pose pair, seconds; with
  ///     `interpolate`, of each of the two reference poses around an estimated one.
  ///   - timeOffset: Seconds added to the estimate's times before pairing.
  ///   - interpolate: Pair each estimated pose with the reference interpolated at its time
  ///     (``Trajectory/pose(at:maxDifference:)``) instead of the nearest reference pose, so
  ///     that trajectories sampled at different times are compared at the same instants.
  /// - Throws: ``TrajectoryError/incomparable(_:)`` without pairs or with too few to align.
  public init(
    reference: Trajectory, estimate: Trajectory, alignment: PoseAlignment = .none, alignOrigin: Bool = false,
    alignmentPoses: Int? = nil, gravity: SIMD3<Double> = [0, 1, 0], maxTimeDifference: Double = 0.01,
    timeOffset: Double = 0, interpolate: Bool = false
  ) throws(TrajectoryError) {
    let ref: Trajectory
    var est: Trajectory
    if interpolate {
      (ref, est) = try Self.interpolating(reference, at: estimate, maxTimeDifference, timeOffset)
    } else {
      let pairs = try TimeAssociation(
        reference, estimate, maxDifference: maxTimeDifference, offset: timeOffset)
      (ref, est) = (reference.subset(pairs.first), estimate.subset(pairs.second))
    }
    let n = min(alignmentPoses ?? ref.count, ref.count)
    var applied = Similarity(rotation: .identity, translation: .zero)
    do {
      let source = Array(est.positions.prefix(n)), target = Array(ref.positions.prefix(n))
      switch alignment {
      case .none:
        if alignOrigin, let e = est.poses.first, let r = ref.poses.first {
          let toReference = r * e.inverse
          applied = Similarity(rotation: toReference.rotation.matrix, translation: toReference.translation)
        }
      case .se3: applied = try TrajectoryAlignment.umeyama(source: source, target: target)
      case .sim3: applied = try TrajectoryAlignment.umeyama(source: source, target: target, withScale: true)
      case .scale:
        let found = try TrajectoryAlignment.umeyama(source: source, target: target, withScale: true)
        applied = Similarity(rotation: .identity, translation: .zero, scale: found.scale)
      case .posyaw: applied = try TrajectoryAlignment.yawOnly(source: source, target: target, up: gravity)
      }
    } catch { throw .incomparable("cannot align the trajectories: \(error)") }
    let turn = RigidTransform<Double>(rotationMatrix: applied.rotation, translation: .zero).rotation
    est.poses = est.poses.map { p in
      RigidTransform(
        rotation: (turn * p.rotation).normalized(),
        translation: applied.rotation * (applied.scale * p.translation) + applied.translation)
    }
    // Matrices as written get the same alignment, as evo applies it (scale, then the transform).
    est.written = est.written?.map { p in
      WrittenPose(
        rotation: applied.rotation * p.rotation,
        translation: applied.rotation * (applied.scale * p.translation) + applied.translation)
    }
    (self.reference, self.estimate) = (ref, est)
    let m = applied.rotation
    self.alignment = AppliedAlignment(
      kind: alignment == .none && alignOrigin ? "origin" : alignment.rawValue,
      rotation: (0..<3).map { i in [m[0, i], m[1, i], m[2, i]] },
      translation: [applied.translation.x, applied.translation.y, applied.translation.z], scale: applied.scale
    )
  }

  /// The estimate's poses that the reference brackets, and the reference interpolated at their
  /// (shifted) times.
  private static func interpolating(
    _ reference: Trajectory, at estimate: Trajectory, _ maxDifference: Double, _ offset: Double
  ) throws(TrajectoryError) -> (Trajectory, Trajectory) {
    var ref = Trajectory(timestamps: [], poses: []), kept: [Int] = []
    for (i, t) in estimate.timestamps.enumerated() {
      guard let pose = reference.pose(at: t + offset, maxDifference: maxDifference) else { continue }
      ref.timestamps.append(t + offset)
      ref.poses.append(pose)
      kept.append(i)
    }
    guard !kept.isEmpty else {
      throw .incomparable(
        "no estimated pose lies between reference poses within \(maxDifference) s (offset \(offset) s)")
    }
    return (ref, estimate.subset(kept))
  }
}
