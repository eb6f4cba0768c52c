import ARMath
import ARRecording
import ArgumentParser

/// `--truth-track FILE` and its companions: a ground truth trajectory (TUM, EuRoC or KITTI, as
/// motion capture and datasets give it) that `validate` measures the anchors' drift against.
struct TruthTrackOptions: ParsableArguments {
  @Option(
    help: """
      A truth trajectory file (TUM, EuRoC or KITTI): the report adds anchor_drift, anchors placed \
      in front of the camera drifting from where this truth puts them (metres and pixels).
      """)
  var truthTrack: String?
  @Option(help: "The truth track's camera frame: opencv (TUM, EuRoC, KITTI) or arkit.")
  var truthConvention: CameraConvention = .opencv
  @Option(help: "Place a drift anchor every this many seconds.") var driftEvery: Double = 10
  @Option(
    help:
      "Where drift anchors are placed in the camera's frame X,Y,Z, metres, ARKit's axes (default 1 m ahead).",
    transform: { try NumberList.parse($0, count: 3) })
  var driftOffset: [Double] = [0, 0, -1]
  @Option(help: "Largest time difference of a recording pose and a truth pose paired, seconds.")
  var truthMaxDiff: Double = 0.01

  func validate() throws {
    guard driftEvery > 0, driftEvery.isFinite else {
      throw ValidationError("--drift-every: expected seconds > 0")
    }
    guard truthMaxDiff >= 0, truthMaxDiff.isFinite else {
      throw ValidationError("--truth-max-diff: expected seconds ≥ 0")
    }
  }

  /// The drift of `recording` against the truth track; nil without one.
  func drift(_ recording: () throws -> RecordingReader) throws -> TrackDrift? {
    guard let truthTrack else { return nil }
    let truth: Trajectory
    do {
      let layout = try RecordingFormat(detecting: truthTrack)
      guard let format = TrajectoryFormat(rawValue: layout.rawValue) else {
        throw InputFailure(
          message: "\(truthTrack): a truth track is a TUM, EuRoC or KITTI file, not \(layout.title)")
      }
      truth = try format.read(path: truthTrack)
    } catch let failure as InputFailure { throw failure } catch { throw InputFailure(error) }
    do {
      return try TrackDrift.measure(
        try recording(), truth: truth, file: truthTrack, convention: truthConvention, every: driftEvery,
        offset: SIMD3(driftOffset[0], driftOffset[1], driftOffset[2]), maxDifference: truthMaxDiff)
    } catch { throw InputFailure(error) }
  }
}
