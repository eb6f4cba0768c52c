import ARMath
import ARPose

/// The absolute pose error of an estimated trajectory against a reference, as evo's
/// `evo_ape` computes it: poses paired by time (``TimeAssociation``), the estimate aligned to
/// the reference, then one error per pair.
public struct AbsolutePoseError: Encodable, Sendable {
  /// How the estimate is brought onto the reference before the errors are taken.
  public enum Alignment: String, Sendable, CaseIterable, Encodable {
    /// As it is.
    case none
    /// Rotation and translation (Umeyama; evo `-a`).
    case se3
    /// Rotation, translation and scale (evo `-as`).
    case sim3
    /// Scale alone, found with the rotation (evo `-s`).
    case scale
    /// Yaw about gravity and translation: what a visual-inertial odometry's frame can differ
    /// by, since it knows gravity (evo has no such alignment).
    case posyaw
  }

  /// What each error measures.
  public enum Relation: String, Sendable, CaseIterable, Encodable {
    /// Distance between the positions, metres.
    case trans
    /// Angle of the relative rotation, degrees.
    case angleDeg = "angle_deg"
    /// `‖estimate⁻¹ · reference − I‖` (Frobenius, 4×4), unitless.
    case full
  }

  /// The alignment applied: `estimate ↦ scale · rotation · estimate + translation`.
  public struct AppliedAlignment: Encodable, Sendable {
    public var kind: String
    public var rotation: [[Double]]
    public var translation: [Double]
    public var scale: Double
  }

  /// The statistics of the errors (in the relation's units).
  public var statistics: ErrorStatistics
  /// Every error, in the pairs' time order.
  public var errors: [Double]
  /// The alignment that was applied.
  public var alignment: AppliedAlignment

  /// The error of `estimate` against `reference`.
  ///
  /// - Parameters:
  ///   - reference: The trajectory taken as true.
  ///   - estimate: The trajectory measured against it.
  ///   - alignment: How the estimate is brought onto the reference first.
  ///   - alignOrigin: Without an alignment, move the estimate so its first pose is the
  ///     reference's (evo `--align_origin`).
  ///   - alignmentPoses: Align on the first this many pairs only (all when nil).
  ///   - relation: What each error measures.
  ///   - gravity: The up axis for ``Alignment/posyaw``.
  ///   - maxTimeDifference: The largest time difference of a pose pair, seconds.
  ///   - timeOffset: Seconds added to the estimate's times before pairing.
  /// - Throws: ``TrajectoryError/incomparable(_:)`` without pairs or with too few to align.
  public init(
    reference: Trajectory, estimate: Trajectory, alignment: Alignment = .none, alignOrigin: Bool = false,
    alignmentPoses: Int? = nil, relation: Relation = .trans, gravity: SIMD3<Double> = [0, 1, 0],
    maxTimeDifference: Double = 0.01, timeOffset: Double = 0
  ) throws(TrajectoryError) {
    let pairs = try TimeAssociation(reference, estimate, maxDifference: maxTimeDifference, offset: timeOffset)
    let ref = reference.subset(pairs.first)
    var est = estimate.subset(pairs.second)
    let n = min(alignmentPoses ?? ref.count, ref.count)
    var applied = Similarity(rotation: .identity, translation: .zero, scale: 1, rms: 0)
    do {
      let source = Array(est.positions.prefix(n)), target = Array(ref.positions.prefix(n))
      switch alignment {
      case .none:
        if alignOrigin, let e = est.poses.first, let r = ref.poses.first {
          let toReference = r * e.inverse
          applied = Similarity(
            rotation: toReference.rotation.matrix, translation: toReference.translation, scale: 1, rms: 0)
        }
      case .se3: applied = try TrajectoryAlignment.umeyama(source: source, target: target)
      case .sim3: applied = try TrajectoryAlignment.umeyama(source: source, target: target, withScale: true)
      case .scale:
        let found = try TrajectoryAlignment.umeyama(source: source, target: target, withScale: true)
        applied = Similarity(rotation: .identity, translation: .zero, scale: found.scale, rms: 0)
      case .posyaw: applied = try TrajectoryAlignment.yawOnly(source: source, target: target, up: gravity)
      }
    } catch { throw .incomparable("cannot align the trajectories: \(error)") }
    let turn = RigidTransform<Double>(rotationMatrix: applied.rotation, translation: .zero).rotation
    est.poses = est.poses.map { p in
      RigidTransform(
        rotation: (turn * p.rotation).normalized(),
        translation: applied.rotation * (applied.scale * p.translation) + applied.translation)
    }
    errors = zip(est.poses, ref.poses).map { e, r in Self.error(e, r, relation) }
    statistics = ErrorStatistics(errors)
    let m = applied.rotation
    self.alignment = AppliedAlignment(
      kind: alignment == .none && alignOrigin ? "origin" : alignment.rawValue,
      rotation: (0..<3).map { i in [m[0, i], m[1, i], m[2, i]] },
      translation: [
        applied.translation.x, applied.translation.y, applied.translation.z,
      ], scale: applied.scale)
  }

  /// As `arscene traj ape` prints it: the statistics at the top level (in the relation's
  /// units), `pairs`, and the `alignment`.
  public func encode(to encoder: any Encoder) throws {
    try statistics.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(alignment, forKey: .alignment)
  }

  enum CodingKeys: String, CodingKey { case alignment }

  /// One pair's error: `e` the aligned estimate, `r` the reference.
  static func error(_ e: RigidTransform<Double>, _ r: RigidTransform<Double>, _ relation: Relation) -> Double
  {
    switch relation {
    case .trans:
      return (e.translation - r.translation).length
    case .angleDeg:
      let relative = e.rotation.conjugate * r.rotation
      let v = relative.vector
      return 2 * Double.atan2(y: SIMD3(v.x, v.y, v.z).length, x: abs(v.w)) * 180 / .pi
    case .full:
      // E = e⁻¹·r: rotation Reᵀ·Rr, translation Reᵀ·(tr − te); its bottom row is I's.
      let re = e.rotation.matrix, rr = r.rotation.matrix
      let rotation = re.transposed * rr
      let translation = re.transposed * (r.translation - e.translation)
      var sum = translation.lengthSquared
      for c in 0..<3 {
        for row in 0..<3 {
          let d = rotation[c, row] - (c == row ? 1 : 0)
          sum += d * d
        }
      }
      return sum.squareRoot()
    }
  }
}
