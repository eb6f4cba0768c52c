import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// The trajectory metrics as a library: alignment recovers known transforms, APE and RPE of
/// constructed errors are what they must be, and on a real SLAM estimate against its ground
/// truth they equal evo's.
@Suite("Trajectory metrics")
struct TrajectoryMetricsTests {
  /// A wandering trajectory of `count` poses, 10 Hz.
  static func walk(_ count: Int, seed: UInt64) -> Trajectory {
    var random = SplitMix64(seed: seed)
    var position = SIMD3<Double>.zero, poses: [RigidTransform<Double>] = []
    for _ in 0..<count {
      position += random.vector3(-0.2...0.2)
      poses.append(RigidTransform(rotation: random.rotation(), translation: position))
    }
    return Trajectory(timestamps: (0..<count).map { 100 + Double($0) / 10 }, poses: poses)
  }

  /// `trajectory` with every pose moved by `transform` (world from world), positions scaled by `scale`.
  static func moved(_ trajectory: Trajectory, by transform: RigidTransform<Double>, scale: Double = 1)
    -> Trajectory
  {
    Trajectory(
      timestamps: trajectory.timestamps,
      poses: trajectory.poses.map { pose in
        RigidTransform(
          rotation: transform.rotation * pose.rotation,
          translation: transform.transformPoint(scale * pose.translation))
      })
  }

  @Test("SE(3) and Sim(3) alignment undo a known move, leaving no error", arguments: [1 as UInt64, 2, 3])
  func alignmentRecoversTheMove(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 100)
    let reference = Self.walk(200, seed: seed)
    let move = RigidTransform(rotation: random.rotation(), translation: random.vector3(-50...50))
    let rigid = try AlignedTrajectories(
      reference: reference, estimate: Self.moved(reference, by: move), alignment: .se3)
    #expect(AbsolutePoseError(rigid).statistics.max < 1e-9)
    #expect(abs(rigid.alignment.scale - 1) < 1e-12)
    let scaled = try AlignedTrajectories(
      reference: reference, estimate: Self.moved(reference, by: move, scale: 0.37), alignment: .sim3)
    #expect(AbsolutePoseError(scaled).statistics.max < 1e-9)
    #expect(abs(scaled.alignment.scale - 1 / 0.37) < 1e-9)
    // Without alignment the error is the move itself, pose by pose.
    let shifted = Self.moved(reference, by: RigidTransform(rotation: .identity, translation: [3, 4, 0]))
    let unaligned = AbsolutePoseError(try AlignedTrajectories(reference: reference, estimate: shifted))
    #expect(unaligned.errors.allSatisfy { abs($0 - 5) < 1e-12 })
    #expect(unaligned.statistics.pairs == 200 && abs(unaligned.statistics.rmse - 5) < 1e-12)
  }

  /// A fixed turn, for a rigid move.
  static func turn() -> Quaternion<Double> {
    var random = SplitMix64(seed: 9)
    return random.rotation()
  }

  @Test("RPE over one frame of a steady drift is the drift; of a rigidly moved copy, zero")
  func relativeErrorOfDrift() throws {
    let reference = Self.walk(100, seed: 7)
    // A drift of 5 cm a frame along a fixed world direction, orientations exact: each relative
    // motion is off by the drift seen from the next camera, 5 cm (evo's RPE, translation part).
    var drifting = reference
    for i in drifting.poses.indices {
      drifting.poses[i].translation = reference.poses[i].translation + Double(i) * SIMD3(0.03, 0.04, 0)
    }
    let pair = try AlignedTrajectories(reference: reference, estimate: drifting)
    let rpe = try RelativePoseError(pair, relation: .trans, delta: 1, unit: .frames)
    #expect(rpe.errors.count == 99)
    #expect(rpe.errors.allSatisfy { abs($0 - 0.05) < 1e-12 })
    let moved = Self.moved(reference, by: RigidTransform(rotation: Self.turn(), translation: [1, 2, 3]))
    let still = try RelativePoseError(
      try AlignedTrajectories(reference: reference, estimate: moved), delta: 1)
    #expect(still.statistics.max < 1e-9)
    #expect(
      throws: TrajectoryError.invalidParameter(
        name: "delta", reason: "expected a positive whole number of frames, got 1.5")
    ) {
      try RelativePoseError(pair, delta: 1.5)
    }
  }

  @Test(
    "TUM fr1/xyz, RGBD-SLAM against the motion-capture truth: APE and RPE equal evo's",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func realSLAMEstimate() throws {
    let folder = RealData.path("trajectories/tum_fr1_xyz")
    let reference = try TrajectoryFormat.tum.read(path: folder + "/freiburg1_xyz-groundtruth.txt")
    let estimate = try TrajectoryFormat.tum.read(path: folder + "/freiburg1_xyz-rgbdslam.txt")
    // evo 1.38.1: associate (max_diff 0.01 s), align SE(3), translation APE; RPE over one frame.
    let aligned = try AlignedTrajectories(reference: reference, estimate: estimate, alignment: .se3)
    let ape = AbsolutePoseError(aligned).statistics
    #expect(ape.pairs == 785)
    #expect(abs(ape.rmse - 0.013470088849733695) < 1e-9)
    #expect(abs(ape.mean - 0.012024498709110232) < 1e-9)
    #expect(abs(ape.median - 0.011183186775061079) < 1e-9)
    #expect(abs(ape.max - 0.03475954589500904) < 1e-9)
    #expect(abs(ape.sse - 0.14243298549148023) < 1e-9)
    let rpe = try RelativePoseError(
      try AlignedTrajectories(reference: reference, estimate: estimate), relation: .trans, delta: 1,
      unit: .frames)
    #expect(rpe.statistics.pairs == 784)
    #expect(abs(rpe.statistics.rmse - 0.0057643708489283196) < 1e-9)
    #expect(abs(rpe.statistics.max - 0.020865814532329833) < 1e-9)
  }
}
