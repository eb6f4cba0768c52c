import ARRecording
import ARTestSupport
import Foundation
import Testing

/// `arscene traj ape|rpe` on real SLAM estimates and their datasets' ground truth (evo's own test
/// data in ../shared/data/real/trajectories), in the default mode, against evo on the same files.
/// Real files repeat timestamps (TUM fr2_desk's ground truth at line 10863, the EuRoC V1_02
/// estimate at line 433): they are kept with a warning, as evo keeps them.
@Suite("Real trajectories against evo")
struct RealTrajectoryTests {
  typealias Case = TrajCommandTests.Case

  static func file(_ relative: String) -> String { RealData.path("trajectories/" + relative) }

  /// The four real sets: TUM fr2_desk and fr1_xyz, EuRoC V1_02 (a EuRoC ground truth against a
  /// TUM-layout estimate), KITTI 00; APE after SE(3) alignment and RPE between consecutive poses.
  static var cases: [Case] {
    let sets:
      [(format: String, estimateFormat: String?, reference: String, estimate: String, delta: Double)] = [
        ("tum", nil, "tum_fr2_desk/fr2_desk_groundtruth.txt", "tum_fr2_desk/fr2_desk_ORB.txt", 1),
        (
          "tum", nil, "tum_fr1_xyz/freiburg1_xyz-groundtruth.txt", "tum_fr1_xyz/freiburg1_xyz-rgbdslam.txt", 1
        ),
        ("euroc", "tum", "euroc_V1_02/V102_groundtruth.csv", "euroc_V1_02/V102.txt", 1),
        ("kitti", nil, "kitti_00/KITTI_00_gt.txt", "kitti_00/KITTI_00_ORB.txt", 10),
      ]
    var cases: [Case] = []
    for set in sets {
      let (reference, estimate) = (file(set.reference), file(set.estimate))
      cases.append(
        Case(
          format: set.format, reference: reference, estimate: estimate, align: "se3", relation: "trans",
          estimate_format: set.estimateFormat))
      cases.append(
        Case(
          metric: "rpe", format: set.format, reference: reference, estimate: estimate, align: "none",
          relation: "angle_deg", estimate_format: set.estimateFormat, delta: set.delta))
    }
    // KITTI as evo's own stored results have it: translation, 10 m apart, consecutive pairs.
    let kitti = sets[3]
    cases.append(
      Case(
        metric: "rpe", format: "kitti", reference: file(kitti.reference), estimate: file(kitti.estimate),
        align: "none", relation: "trans", delta: 10, delta_unit: "metres"))
    return cases
  }

  @Test(
    "APE and RPE equal evo's on all four real sets, repeated timestamps kept with a warning",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func agreesWithEvo() throws {
    let cases = Self.cases
    for (c, evo) in zip(cases, try TrajCommandTests.evo(cases)) {
      var arguments = [
        "traj", c.metric, c.reference, c.estimate, "--align", c.align, "--relation", c.relation,
      ]
      // Every layout is told by its content (a KITTI file's .txt says nothing).
      if c.metric == "rpe" { arguments += ["--delta", "\(Int(c.delta))", "--delta-unit", c.delta_unit] }
      let outcome = try ArsceneRunner.run(arguments)
      #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
      // KITTI's rotations are printed to 9 digits and orthonormal only to about 1e-7: the
      // relative pose error multiplies them as written, as evo does (`WrittenPose`).
      try TrajCommandTests.expectSame(outcome.stdout, as: evo, within: 1e-9, arguments)
      if c.reference.hasSuffix("fr2_desk_groundtruth.txt") {
        #expect(outcome.stderr.contains("fr2_desk_groundtruth.txt:10863: timestamp"), "\(outcome.stderr)")
      }
      if c.estimate.hasSuffix("V102.txt") {
        #expect(outcome.stderr.contains("V102.txt:433: timestamp"), "\(outcome.stderr)")
      }
    }
  }

  @Test(
    "the library keeps a repeated timestamp and says where; time going back stays an error",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func repeatedTimestamps() throws {
    var warnings: [String] = []
    let truth = try TrajectoryFormat.tum.read(
      path: Self.file("tum_fr2_desk/fr2_desk_groundtruth.txt"), warnings: &warnings)
    #expect(truth.count == 20957)
    #expect(warnings.count == 1 && warnings[0].contains("fr2_desk_groundtruth.txt:10863: timestamp"))
    // Streamed (the recording reader, --lenient's path): the same pose kept, the same warning.
    let reader = try RecordingReader(path: Self.file("euroc_V1_02/V102.txt"), format: .tum)
    var poses = 0
    try reader.forEach { if case .pose = $0 { poses += 1 } }
    #expect(poses == 807 && reader.skipped == 0)
    #expect(reader.warnings.contains { $0.contains("V102.txt:433: t:") && $0.contains("repeats") })
    expectError(TrajectoryError.self, "badLine") {
      _ = try TrajectoryFormat.tum.parse("2 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n", path: "back.tum")
    }
  }
}
