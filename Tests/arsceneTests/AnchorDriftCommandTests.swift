import ARRecording
import ARTestSupport
import Foundation
import Testing

/// `arscene traj drift` on real SLAM estimates against their ground truth, against an
/// independent computation (numpy and OpenCV's `projectPoints`, Tools/peers/anchor_drift.py) on
/// the same files with the same placement rule.
@Suite(
  "Anchor drift of real SLAM estimates", .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
struct AnchorDriftCommandTests {
  /// TUM fr2_desk's and fr1_xyz's estimates, each with its Kinect's published lens.
  static let sets: [(reference: String, estimate: String, camera: String, lens: [String])] = [
    (
      "tum_fr2_desk/fr2_desk_groundtruth.txt", "tum_fr2_desk/fr2_desk_ORB.txt", "tum-freiburg2",
      [
        "520.908620", "521.007327", "325.641442", "250.201764", "0.231222", "-0.784899", "-0.003257",
        "-0.000105",
        "0.917205",
      ]
    ),
    (
      "tum_fr1_xyz/freiburg1_xyz-groundtruth.txt", "tum_fr1_xyz/freiburg1_xyz-rgbdslam.txt", "tum-freiburg1",
      [
        "517.306408", "516.469215", "318.643040", "255.313989", "0.262383", "-0.953104", "-0.005358",
        "0.002628",
        "1.163314",
      ]
    ),
  ]

  struct Peer: Decodable {
    struct Anchor: Decodable {
      var placed_at: Double
      var series: [[Double?]]
    }
    var pairs: Int
    var anchors: [Anchor]
  }

  struct Ours: Decodable {
    struct Anchor: Decodable {
      struct Sample: Decodable {
        var t: Double
        var error_m: Double
        var error_px: Double?
      }
      var placed_at: Double
      var series: [Sample]
      var behind_camera: Int
    }
    var pairs: Int
    var anchors: [Anchor]
  }

  @Test("every pair's drift equals numpy's to 1e-6 m and OpenCV's pixels to 1e-3 px", arguments: [0, 1])
  func equalsTheOracle(set index: Int) throws {
    let set = Self.sets[index]
    let (reference, estimate) = (
      RealData.path("trajectories/" + set.reference), RealData.path("trajectories/" + set.estimate)
    )
    let peer = try PythonPeer.runScript(
      PythonPeer.packageRoot + "/Tools/peers/anchor_drift.py",
      arguments: [reference, estimate, "5"] + set.lens)
    #expect(peer.status == 0, "\(peer.output.prefix(400))")
    let expected = try JSONDecoder().decode(Peer.self, from: Data(peer.output.utf8))
    let run = try ArsceneRunner.run([
      "traj", "drift", reference, estimate, "--place-every", "5", "--camera", set.camera,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let ours = try JSONDecoder().decode(Ours.self, from: Data(run.stdout.utf8))
    #expect(ours.pairs == expected.pairs && ours.anchors.count == expected.anchors.count)
    var (metres, pixels, compared) = (0.0, 0.0, 0)
    for (a, b) in zip(ours.anchors, expected.anchors) {
      #expect(a.placed_at == b.placed_at && a.series.count == b.series.count)
      #expect(a.behind_camera == b.series.filter { $0[2] == nil }.count)
      for (s, e) in zip(a.series, b.series) {
        #expect(s.t == e[0])
        metres = max(metres, abs(s.error_m - e[1]!))
        if let ours = s.error_px, let theirs = e[2] { pixels = max(pixels, abs(ours - theirs)) }
        compared += 1
      }
    }
    #expect(compared > 1000 && metres < 1e-6 && pixels < 1e-3, "\(compared) pairs: \(metres) m, \(pixels) px")
  }
}
