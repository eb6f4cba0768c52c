import ARMath

/// Where drift anchors are placed: how often, and where in the camera's frame.
public struct DriftPlacement: Sendable, Equatable {
  /// Seconds between anchors, from the first pose with truth.
  public var every: Double
  /// Metres in the camera's frame, ARKit's axes (`[0, 0, -1]`: 1 m ahead).
  public var offset: SIMD3<Double>

  /// A placement every `every` seconds at `offset` (default 1 m ahead).
  public init(every: Double, offset: SIMD3<Double> = [0, 0, -1]) {
    self.every = every
    self.offset = offset
  }
}

/// The app's and the true camera pose at each frame the validator has truth for (a simulation's
/// truth records, or the control points' fit), and the recording's camera: what anchor drift is
/// measured on when no truth track is given.
struct DriftPairs {
  private var app = Trajectory(timestamps: [], poses: [])
  private var truth = Trajectory(timestamps: [], poses: [])
  private var camera: AnchorDrift.Camera?

  mutating func take(
    time: Double, app pose: RigidTransform<Double>, truth real: RigidTransform<Double>,
    frame: CameraFrameSample
  ) {
    guard app.timestamps.last.map({ time > $0 }) ?? true else { return }
    app.timestamps.append(time)
    app.poses.append(pose)
    truth.timestamps.append(time)
    truth.poses.append(real)
    if camera == nil, let k = frame.intrinsics {
      camera = AnchorDrift.Camera(pinhole: k, lens: frame.lens, convention: .arkit)
    }
  }

  /// The drift of anchors placed as `placement` says, `source` naming the truth; nil without
  /// two frames with truth.
  func drift(_ placement: DriftPlacement, source: String) -> TrackDrift? {
    guard app.count >= 2 else { return nil }
    let times = AnchorDrift.placements(every: placement.every, over: app)
    guard
      let drift = try? AnchorDrift(
        reference: truth, estimate: app, placedAt: times, offset: placement.offset, camera: camera)
    else { return nil }
    return TrackDrift(truth: source, truthTrack: nil, convention: .arkit, drift: drift)
  }
}
