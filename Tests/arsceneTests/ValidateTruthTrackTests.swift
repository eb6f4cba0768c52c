import ARTestSupport
import Foundation
import Testing

/// `validate --truth-track`: the recording's anchors drifting against a ground truth file.
@Suite("arscene validate --truth-track")
struct ValidateTruthTrackTests {
  static let scene = ArsceneRunner.packageRoot.path + "/Scenes/zavist.json"

  @Test("an estimate sliding 1 cm a pose from its truth: anchor_drift reports 1 cm a pose, in JSON and HTML")
  func knownDrift() throws {
    let folder = try TemporaryFolder()
    // TUM files: the truth walks along x looking down +z (OpenCV); the estimate slides 1 cm more a pose.
    let truth = (0...20).map { "\(Double($0) / 10) \(Double($0) * 0.1) 0 0 0 0 0 1" }
    let estimate = (0...20).map { "\(Double($0) / 10) \(Double($0) * 0.11) 0 0 0 0 0 1" }
    let truthFile = try folder.write(truth.joined(separator: "\n") + "\n", to: "truth.tum")
    let estimateFile = try folder.write(estimate.joined(separator: "\n") + "\n", to: "estimate.tum")
    let html = folder.path + "/report.html"
    let run = try ArsceneRunner.run([
      "validate", estimateFile, "--scene", Self.scene, "--truth-track", truthFile, "--drift-every", "100",
      "--html", html,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let track = try #require(report["anchor_drift"] as? [String: Any])
    #expect(track["convention"] as? String == "opencv")
    let drift = try #require(track["drift"] as? [String: Any])
    let anchors = try #require(drift["anchors"] as? [[String: Any]])
    // The summary leaves the series out (--json keeps it).
    #expect(anchors.count == 1 && (anchors[0]["series"] as? [Any])?.isEmpty == true)
    let metres = try #require(drift["error_m"] as? [String: Any])
    #expect(abs((metres["max"] as? Double ?? 0) - 0.2) < 1e-9 && metres["count"] as? Int == 21)
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("Anchor drift against the truth track") && page.contains("<polyline"))
    let bad = try ArsceneRunner.run([
      "validate", estimateFile, "--scene", Self.scene, "--truth-track", Self.scene,
    ])
    #expect(bad.status == 2, "\(bad.stderr)")
  }

  @Test(
    "on TUM's real RGBD-SLAM estimate it equals traj drift",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func equalsTrajDrift() throws {
    let (truth, estimate) = (
      RealData.path("trajectories/tum_fr1_xyz/freiburg1_xyz-groundtruth.txt"),
      RealData.path("trajectories/tum_fr1_xyz/freiburg1_xyz-rgbdslam.txt")
    )
    let validated = try ArsceneRunner.run([
      "validate", estimate, "--scene", Self.scene, "--truth-track", truth, "--drift-every", "10",
    ])
    let drifted = try ArsceneRunner.run([
      "traj", "drift", truth, estimate, "--place-every", "10", "--no-series",
    ])
    #expect(validated.status == 0 && drifted.status == 0, "\(validated.stderr) \(drifted.stderr)")
    let a = try #require(
      ((try JSONSerialization.jsonObject(with: Data(validated.stdout.utf8)) as? [String: Any])?[
        "anchor_drift"]
        as? [String: Any])?["drift"] as? [String: Any])
    let b = try #require(try JSONSerialization.jsonObject(with: Data(drifted.stdout.utf8)) as? [String: Any])
    for key in ["median", "p95", "max", "rmse"] {
      let (x, y) = (
        (a["error_m"] as? [String: Any])?[key] as? Double ?? .nan,
        (b["error_m"] as? [String: Any])?[key] as? Double ?? 0
      )
      #expect(abs(x - y) < 1e-12, "\(key): \(x) vs \(y)")
    }
  }
}
