import ARMath

/// A recording's anchor drift against a truth track (a motion-capture or dataset ground truth
/// file): the recording's poses are the app's trajectory, the track the truth, and anchors are
/// placed in front of the camera through both (``AnchorDrift``), their pixels through the
/// recording's own camera. What `validate --truth-track` adds to its report.
///
/// A recording's poses are in ARKit's camera frame, and the track is turned to it from its own
/// `convention`; a trajectory file read as a recording (TUM, EuRoC, KITTI) keeps its poses as
/// written, so then both are taken in the track's convention.
public struct TrackDrift: Codable, Sendable, Equatable {
  /// Where the truth came from: `track` (a truth track file), `simulation` (the recording's own
  /// truth records) or `control` (the control points' fit).
  public var truth: String
  /// The truth track's file, as given; nil for other truths.
  public var truthTrack: String?
  /// The track's camera frame (turned to ARKit's, the recording's, before comparing).
  public var convention: CameraConvention
  /// The drift.
  public var drift: AnchorDrift

  enum CodingKeys: String, CodingKey {
    case truth, truthTrack = "truth_track", convention, drift
  }

  /// The drift of anchors placed every `every` seconds at `offset` (metres, ARKit's camera
  /// frame: 1 m ahead is `[0, 0, -1]`) in `recording`, against `truth` read from `file`; poses
  /// paired within `maxDifference` seconds as evo pairs them.
  /// - Throws: A recording's error, or ``TrajectoryError`` when no poses pair.
  public static func measure(
    _ recording: RecordingReader, truth: Trajectory, file: String, convention: CameraConvention,
    every: Double, offset: SIMD3<Double>, maxDifference: Double = 0.01
  ) throws -> TrackDrift {
    var estimate = Trajectory(timestamps: [], poses: [])
    var camera: AnchorDrift.Camera?
    let recordingConvention: CameraConvention = recording.format.isTrajectory ? convention : .arkit
    try recording.forEach { record in
      switch record {
      case .pose(let p):
        estimate.timestamps.append(p.time)
        estimate.poses.append(p.worldFromCamera)
      case .frame(let f) where camera == nil:
        if let k = f.intrinsics {
          camera = AnchorDrift.Camera(pinhole: k, lens: f.lens, convention: recordingConvention)
        }
      default: break
      }
    }
    let arkitTruth = truth.cameraFrame(from: convention, to: recordingConvention)
    let pairs = try TimeAssociation(estimate, arkitTruth, maxDifference: maxDifference)
    let app = Trajectory(
      timestamps: pairs.first.map { estimate.timestamps[$0] }, poses: pairs.first.map { estimate.poses[$0] })
    let real = Trajectory(
      timestamps: pairs.second.map { arkitTruth.timestamps[$0] },
      poses: pairs.second.map { arkitTruth.poses[$0] })
    let times = AnchorDrift.placements(every: every, over: app)
    // The offset is given in ARKit's axes: re-expressed in the frame the poses are in.
    let placed = CameraConvention.convert(offset, from: .arkit, to: recordingConvention)
    let drift = try AnchorDrift(
      reference: real, estimate: app, placedAt: times, offset: placed, camera: camera)
    return TrackDrift(truth: "track", truthTrack: file, convention: convention, drift: drift)
  }
}
