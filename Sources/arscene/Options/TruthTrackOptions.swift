import ARMath
import ARRecording
import ArgumentParser

/// `--truth-track FILE` and its camera frame: a ground truth trajectory (TUM, EuRoC or KITTI, as
/// motion capture and datasets give it) that `validate` measures anchor drift against and
/// `render --recording` draws the truth's ghost from.
struct TruthTrackFile: ParsableArguments {
  @Option(
    help: """
      A truth trajectory file (TUM, EuRoC or KITTI) on the recording's clock: validate adds \
      anchor_drift against it, render --recording draws where it puts the content as a ghost.
      """)
  var truthTrack: String?
  @Option(help: "The truth track's camera frame: opencv (TUM, EuRoC, KITTI) or arkit.")
  var truthConvention: CameraConvention = .opencv

  /// The truth track as its file has it; nil without one.
  func trajectory() throws -> Trajectory? {
    guard let truthTrack else { return nil }
    do {
      let layout = try RecordingFormat(detecting: truthTrack)
      guard let format = TrajectoryFormat(rawValue: layout.rawValue) else {
        throw InputFailure(
          message: "\(truthTrack): a truth track is a TUM, EuRoC or KITTI file, not \(layout.title)")
      }
      return try format.read(path: truthTrack)
    } catch let failure as InputFailure { throw failure } catch { throw InputFailure(error) }
  }

  /// The truth track with its camera frame turned to ARKit's (a recording's); nil without one.
  func trajectoryInARKitFrame() throws -> Trajectory? {
    try trajectory()?.cameraFrame(from: truthConvention, to: .arkit)
  }
}

/// `validate`'s truth track and where its drift anchors are placed.
struct TruthTrackOptions: ParsableArguments {
  @OptionGroup var file: TruthTrackFile
  @Option(
    help: """
      Place a drift anchor every this many seconds (default 10 with --truth-track). Without a \
      truth track, drift is measured against the recording's own truth (a simulation's, or the \
      control points' fit) when this is given.
      """)
  var driftEvery: Double?
  @Option(
    help:
      "Where drift anchors are placed in the camera's frame X,Y,Z, metres, ARKit's axes (default 1 m ahead).",
    transform: { try NumberList.parse($0, count: 3) })
  var driftOffset: [Double] = [0, 0, -1]
  @Option(help: "Largest time difference of a recording pose and a truth pose paired, seconds.")
  var truthMaxDiff: Double = 0.01

  func validate() throws {
    if let driftEvery, !(driftEvery > 0 && driftEvery.isFinite) {
      throw ValidationError("--drift-every: expected seconds > 0")
    }
    guard truthMaxDiff >= 0, truthMaxDiff.isFinite else {
      throw ValidationError("--truth-max-diff: expected seconds ≥ 0")
    }
  }

  /// Where drift anchors go when measured against the recording's own truth: nil unless
  /// `--drift-every` is given without a truth track.
  var ownTruthPlacement: DriftPlacement? {
    guard file.truthTrack == nil, let driftEvery else { return nil }
    return DriftPlacement(every: driftEvery, offset: SIMD3(driftOffset[0], driftOffset[1], driftOffset[2]))
  }

  /// The drift of `recording` against the truth track; nil without one.
  func drift(_ recording: () throws -> RecordingReader) throws -> TrackDrift? {
    guard let truthTrack = file.truthTrack, let truth = try file.trajectory() else { return nil }
    do {
      return try TrackDrift.measure(
        try recording(), truth: truth, file: truthTrack, convention: file.truthConvention,
        every: driftEvery ?? 10,
        offset: SIMD3(driftOffset[0], driftOffset[1], driftOffset[2]), maxDifference: truthMaxDiff)
    } catch { throw InputFailure(error) }
  }
}
