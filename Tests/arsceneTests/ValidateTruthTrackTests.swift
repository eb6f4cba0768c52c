import ARImage
import ARImageIO
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
    #expect(page.contains("Anchor drift against the truth") && page.contains("<polyline"))
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

/// `render --recording --truth-track`: where the truth puts the content, drawn as a ghost.
@Suite("arscene render --recording --truth-track")
struct TruthGhostRenderTests {
  /// Three frames without images (the background shows) looking down −z at a cube 5 m ahead;
  /// `truth` the TUM lines of the truth track (ARKit's camera frame).
  static func render(truth: [String]?, in folder: TemporaryFolder, name: String) throws -> RGBA8Image {
    let header =
      #"{"type":"header","format":"arscene-recording","version":1,"source":"t","time_base":"unknown"}"#
    var lines = [header]
    for i in 0..<3 {
      lines.append(#"{"type":"pose","t":\#(i),"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#)
      lines.append(#"{"type":"frame","t":\#(i),"index":\#(i),"intrinsics":[60,60,32,24],"size":[64,48]}"#)
    }
    let recording = try folder.write(lines.joined(separator: "\n") + "\n", to: "walk.jsonl")
    let cube = Fixtures.path("obj/cube_quads.obj")
    let scene = try folder.write(
      #"{"output":{"width":64,"height":48},"background":{"color":[0,0,0]},"camera":{"vertical_fov_deg":60,"look_at":{"eye":[0,0,5],"target":[0,0,0]}},"objects":[{"model":"\#(cube)","transform":{"translation":[0,0,-5],"scale":[0.5,0.5,0.5]}}]}"#,
      to: "scene.json")
    var arguments = [
      "render", "--recording", recording, "--scene", scene, "--frames", folder.path + "/" + name,
      "--allow-path",
      Fixtures.root,
    ]
    if let truth {
      let track = try folder.write(truth.joined(separator: "\n") + "\n", to: name + ".tum")
      arguments += ["--truth-track", track, "--truth-convention", "arkit"]
    }
    let run = try ArsceneRunner.run(arguments)
    #expect(run.status == 0, "\(run.stderr)")
    return try ImageFile.readRGBA8(folder.path + "/" + name + "/frame_000002.png")
  }

  static func drawn(_ image: RGBA8Image) -> Set<Int> {
    Set(
      image.pixels.indices.filter {
        image.pixels[$0].x > 8 || image.pixels[$0].y > 8 || image.pixels[$0].z > 8
      })
  }

  @Test(
    "a truth equal to the app's poses puts the ghost on the content; a truth 0.5 m to the side puts it beside"
  )
  func ghostFollowsTheTruth() throws {
    let folder = try TemporaryFolder()
    let plain = Self.drawn(try Self.render(truth: nil, in: folder, name: "plain"))
    let still = (0..<3).map { "\($0) 0 0 0 0 0 0 1" }
    let same = Self.drawn(try Self.render(truth: still, in: folder, name: "same"))
    // The truth's camera moves 0.5 m to the right at t = 2 while the app's stays: in truth the
    // content is 0.5 m left of where the app draws it.
    let moved = ["0 0 0 0 0 0 0 1", "1 0 0 0 0 0 0 1", "2 0.5 0 0 0 0 0 1"]
    let beside = Self.drawn(try Self.render(truth: moved, in: folder, name: "beside"))
    #expect(!plain.isEmpty && same == plain)
    let ghostOnly = beside.subtracting(plain)
    #expect(ghostOnly.count > 20, "\(ghostOnly.count) ghost pixels beside the content")
    // Left of the content: 0.5 m at 5 m is 6 px at fx 60.
    let column = { (i: Int) in i % 64 }
    let meanGhost = Double(ghostOnly.map(column).reduce(0, +)) / Double(ghostOnly.count)
    let meanContent = Double(plain.map(column).reduce(0, +)) / Double(plain.count)
    #expect(meanGhost < meanContent - 3, "ghost at column \(meanGhost), content at \(meanContent)")
  }
}
