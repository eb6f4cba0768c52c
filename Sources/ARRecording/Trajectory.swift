import ARMath

/// Camera poses over time: `worldFromCamera` (metres, the trajectory's own world frame) at each
/// timestamp (seconds), in the order recorded.
public struct Trajectory: Sendable, Equatable {
  /// Seconds; for a format without time (KITTI), the pose's index.
  public var timestamps: [Double]
  /// Camera (or body) frame to world, one per timestamp.
  public var poses: [RigidTransform<Double>]
  /// The poses as the file wrote them, when it wrote matrices (KITTI): what the relative pose
  /// error is computed on, as evo does; nil otherwise.
  public var written: [WrittenPose]? = nil

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
    var subset = Trajectory(timestamps: indices.map { timestamps[$0] }, poses: indices.map { poses[$0] })
    subset.written = written.map { all in indices.map { all[$0] } }
    return subset
  }

  /// The pose at time `t`, interpolated between the poses either side of it (translation
  /// linearly, rotation along the shorter arc), or nil when `t` is outside the trajectory or a
  /// neighbour is more than `maxDifference` seconds away. A pose at exactly `t` is returned as is.
  public func pose(at t: Double, maxDifference: Double) -> RigidTransform<Double>? {
    // The first timestamp after t.
    var low = 0, high = timestamps.count
    while low < high {
      let mid = (low + high) / 2
      if timestamps[mid] <= t { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return nil }
    let before = low - 1
    if timestamps[before] == t { return poses[before] }
    guard low < timestamps.count, t - timestamps[before] <= maxDifference,
      timestamps[low] - t <= maxDifference
    else { return nil }
    let f = (t - timestamps[before]) / (timestamps[low] - timestamps[before])
    let (a, b) = (poses[before], poses[low])
    return RigidTransform(
      rotation: a.rotation.slerp(to: b.rotation, f),
      translation: a.translation + f * (b.translation - a.translation))
  }
}

extension Trajectory {
  /// The same poses with the camera frame of convention `source` turned to `target`'s (the world
  /// unchanged): a ground truth in OpenCV's camera frame made comparable with ARKit's poses.
  public func cameraFrame(from source: CameraConvention, to target: CameraConvention) -> Trajectory {
    guard source != target else { return self }
    let turn: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: target, to: source)
    return Trajectory(timestamps: timestamps, poses: poses.map { $0 * turn })
  }
}
