import ARMath
import ARTestSupport
import Testing

@testable import ARRecording

/// Anchor drift on trajectories whose drift is known.
@Suite("Anchor drift")
struct AnchorDriftTests {
  /// A camera walking along +x, looking down +z (OpenCV), a pose every 0.1 s.
  static func walk(_ count: Int, drift: (Int) -> RigidTransform<Double> = { _ in .identity }) -> Trajectory {
    let times = (0..<count).map { Double($0) / 10 }
    let poses = (0..<count).map { i in
      drift(i) * RigidTransform<Double>(rotation: .identity, translation: [Double(i) * 0.1, 0, 0])
    }
    return Trajectory(timestamps: times, poses: poses)
  }

  static let camera = AnchorDrift.Camera(pinhole: Pinhole(fx: 500, fy: 500, cx: 320, cy: 240))

  @Test("an estimate off the truth by one rigid motion does not drift: placement makes it vanish")
  func rigidOffsetIsNoDrift() throws {
    let offset = RigidTransform<Double>(
      rotation: Quaternion(angle: .degrees(30), axis: [0, 1, 0]), translation: [5, -2, 1])
    let drift = try AnchorDrift(
      reference: Self.walk(20), estimate: Self.walk(20) { _ in offset }, placedAt: [0, 0.5],
      offset: [0, 0, 1], camera: Self.camera)
    #expect(drift.errorM.max < 1e-12 && drift.errorPx!.max < 1e-9)
    #expect(drift.anchors.map(\.placedAt) == [0, 0.5] && drift.anchors[1].series.count == 15)
  }

  @Test("an estimate that slides 1 cm a pose along x: the anchor drifts 1 cm a pose, 5 px at 1 m")
  func linearDrift() throws {
    let slide = { (i: Int) in
      RigidTransform<Double>(rotation: .identity, translation: [0.01 * Double(i), 0, 0])
    }
    let drift = try AnchorDrift(
      reference: Self.walk(11), estimate: Self.walk(11, drift: slide), placedAt: [0], offset: [0, 0, 1],
      camera: Self.camera)
    let series = drift.anchors[0].series
    for (k, sample) in series.enumerated() {
      #expect(abs(sample.errorM - 0.01 * Double(k)) < 1e-12)
      #expect(abs(sample.errorPx! - 5 * Double(k)) < 1e-9)
    }
    #expect(drift.anchors[0].worst.first?.t == 1.0 && abs(drift.errorM.max - 0.1) < 1e-12)
    // numpy's percentile of 0, 0.01 … 0.1: linear between ranks.
    #expect(abs(drift.errorM.p90 - 0.09) < 1e-12 && abs(drift.errorM.p95 - 0.095) < 1e-12)
  }

  @Test("points behind the camera get no pixels, and are counted; a time after the last pair is refused")
  func behindAndTooLate() throws {
    // Truth turns about y by 180° at pose 5: the anchor ends up behind its camera.
    let turn = { (i: Int) in
      RigidTransform<Double>(
        rotation: Quaternion(angle: .degrees(i >= 5 ? 180 : 0), axis: [0, 1, 0]), translation: .zero)
    }
    let drift = try AnchorDrift(
      reference: Self.walk(10), estimate: Self.walk(10, drift: turn), placedAt: [0], offset: [0, 0, 1],
      camera: Self.camera)
    #expect(drift.anchors[0].behindCamera == 5 && drift.errorPx?.count == 5)
    #expect(throws: TrajectoryError.self) {
      try AnchorDrift(
        reference: Self.walk(3), estimate: Self.walk(3), placedAt: [9], offset: [0, 0, 1], camera: nil)
    }
  }
}

/// Anchor drift measured by the validator against a simulation's own truth.
@Suite("Anchor drift against a recording's own truth")
struct ValidatorDriftTests {
  static func report(_ model: PhoneErrorModel, seed: UInt64) throws -> ValidationReport {
    let site = ValidationStatisticsTests.site
    let simulator = SessionSimulator(
      site: site, path: try WalkPath.tour(site), model: model, seed: seed, duration: 60)
    var validator = AnchorValidator(site: site)
    validator.driftPlacement = DriftPlacement(every: 20)
    try simulator.run { validator.consume($0) }
    return validator.report(source: "simulate", skipped: 0)
  }

  @Test("a perfect phone's anchors stay put; a drifting odometry's drift, and the truth is named simulation")
  func simulatedTruth() throws {
    var perfect = PhoneErrorModel.perfect
    perfect.frameRate = 2
    let still = try #require(try Self.report(perfect, seed: 1).anchorDrift)
    #expect(still.truth == "simulation" && still.truthTrack == nil && still.drift.anchors.count == 4)
    #expect(still.drift.errorM.max < 1e-6)
    var drifting = ValidationStatisticsTests.model
    (drifting.frameRate, drifting.odometryYawDrift, drifting.odometryScaleSigma) = (2, 2, 0.05)
    let moved = try #require(try Self.report(drifting, seed: 3).anchorDrift)
    #expect(moved.drift.errorM.max > 0.01, "\(moved.drift.errorM)")
  }
}
