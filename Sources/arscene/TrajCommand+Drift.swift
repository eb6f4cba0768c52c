import ARMath
import ARRecording
import ArgumentParser

extension TrajCommand {
  /// `arscene traj drift`: how far content placed through EST drifts from where REF puts it.
  struct Drift: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "drift",
      abstract:
        "Anchor drift of EST against REF: content placed in front of the camera, in metres and pixels.",
      discussion: """
        Poses are paired as for ape (no alignment unless --align: a rigid one changes nothing; \
        use sim3 for a monocular estimate). An anchor is placed at each --place-at time (or every \
        --place-every seconds from the first pair) at --offset in the camera's frame, as an app \
        places content in front of its camera, through EST and through REF alike; at every later \
        pair the drift is the distance, in the camera's frame, between where EST draws it and \
        where REF says it belongs, and with a camera (--intrinsics or --camera, a lens with \
        --distortion or --fisheye) its displacement on screen in pixels. Prints JSON \
        {"anchors":[{"placed_at","offset","error_m","error_px","behind_camera","series","worst"}],\
        "error_m","error_px","pairs","skipped"}; statistics are rmse, mean, median, std, min, max, \
        p90, p95, p99 and count.
        """)

    @OptionGroup var pairing: Pairing
    @Option(help: "Place an anchor at this time, seconds (repeatable).") var placeAt: [Double] = []
    @Option(help: "Place an anchor every this many seconds from the first pair.") var placeEvery: Double?
    @Option(
      help: "Where the anchor is placed in the camera's frame X,Y,Z, metres (default: 1 m ahead).",
      transform: { text in try NumberList.parse(text, count: 3) })
    var offset: [Double]?
    @Option(
      help: "The camera's frame: opencv (y down, looking down +z: TUM, EuRoC, KITTI) or arkit.")
    var convention: CameraConvention = .opencv
    @Option(
      parsing: .unconditional, help: "The camera's intrinsics FX,FY,CX,CY in pixels.",
      transform: Pinhole<Double>.init(parsing:))
    var intrinsics: Pinhole<Double>?
    @OptionGroup var frameCamera: FrameCameraOptions
    @Flag(help: "Leave out each anchor's drift over time (the series).") var noSeries = false

    func validate() throws {
      guard placeAt.isEmpty != (placeEvery == nil) else {
        throw ValidationError("give --place-at (one or more times) or --place-every, one of the two")
      }
      if let placeEvery, !(placeEvery > 0 && placeEvery.isFinite) {
        throw ValidationError("--place-every: expected seconds > 0")
      }
      if placeAt.contains(where: { !$0.isFinite }) {
        throw ValidationError("--place-at: expected finite seconds")
      }
      if frameCamera.isGiven, intrinsics == nil, frameCamera.camera == nil {
        throw ValidationError("--distortion, --fisheye and --image-size need --intrinsics or --camera")
      }
    }

    func run() throws {
      try reportingInputFailures {
        let (aligned, skipped) = try pairing.aligned()
        let stated = try frameCamera.stated(intrinsics: intrinsics)
        let camera = stated?.intrinsics.map {
          AnchorDrift.Camera(pinhole: $0, lens: stated?.lens ?? .none, convention: convention)
        }
        let placements =
          placeEvery.map { AnchorDrift.placements(every: $0, over: aligned.estimate) } ?? placeAt
        let at = offset ?? (convention == .opencv ? [0, 0, 1] : [0, 0, -1])
        var result: AnchorDrift
        do throws(TrajectoryError) {
          result = try AnchorDrift(
            reference: aligned.reference, estimate: aligned.estimate, placedAt: placements,
            offset: SIMD3(at[0], at[1], at[2]), camera: camera)
        } catch { throw InputFailure(error) }
        if noSeries { for i in result.anchors.indices { result.anchors[i].series = [] } }
        result.skipped = skipped
        try JSONOutput.write(result)
      }
    }
  }
}
