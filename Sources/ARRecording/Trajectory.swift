import ARMath

/// Camera poses over time: `worldFromCamera` (metres, the trajectory's own world frame) at each
/// timestamp (seconds), in the order recorded.
public struct Trajectory: Sendable, Equatable {
  /// Seconds; for a format without time (KITTI), the pose's index.
  public var timestamps: [Double]
  /// Camera (or body) frame to world, one per timestamp.
  public var poses: [RigidTransform<Double>]

  /// A trajectory; `timestamps` and `poses` must have the same count.
  public init(timestamps: [Double], poses: [RigidTransform<Double>]) {
    precondition(timestamps.count == poses.count, "one timestamp per pose")
    self.timestamps = timestamps
    self.poses = poses
  }

  /// Number of poses.
  public var count: Int { poses.count }

  /// The positions, metres.
  public var positions: [SIMD3<Double>] { poses.map(\.translation) }

  /// The poses at `indices`, in that order.
  public func subset(_ indices: [Int]) -> Trajectory {
    Trajectory(timestamps: indices.map { timestamps[$0] }, poses: indices.map { poses[$0] })
  }
}
