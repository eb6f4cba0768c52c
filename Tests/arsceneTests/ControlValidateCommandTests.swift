import ARTestSupport
import Foundation
import Testing

/// `arscene validate --control`, end to end: a simulated walk's clicks (from `simulate --clicks`)
/// measure the anchors' errors on the recording with its truth removed as its truth does; bad
/// clicks files and control-point entries are errors naming file, line and field.
@Suite("arscene validate with control points")
struct ControlValidateCommandTests {
  static let scene = "Scenes/zavist-survey.json"

  static func anchors(_ text: String) throws -> [[String: Any]] {
    let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    return try #require(json["anchors"] as? [[String: Any]])
  }

  /// A 60 s walk at Závist simulated with `options` (`--clicks`, `--frames`); returns the
  /// recording and the recording without its truth records.
  static func walk(in folder: TemporaryFolder, _ options: [String]) throws -> (
    recording: String, withoutTruth: String
  ) {
    let recording = folder.path + "/walk.jsonl"
    let simulated = try ArsceneRunner.run(
      ["simulate", "--scene", scene, "--seed", "5", "--duration", "60", "-o", recording] + options)
    #expect(simulated.status == 0, "\(simulated.stderr)")
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    let stripped = lines.filter { !$0.hasPrefix(#"{"type":"truth""#) }.joined(separator: "\n") + "\n"
    return (recording, try folder.write(stripped, to: "walk-without-truth.jsonl"))
  }

  /// Each anchor's median error in the two reports agree within 0.3 m or 30%.
  static func expectAgreement(truth: String, control: String) throws {
    for (t, c) in zip(try anchors(truth), try anchors(control)) {
      let measured = try #require((t["position_error_m"] as? [String: Any])?["median"] as? Double)
      let controlled = try #require((c["position_error_m"] as? [String: Any])?["median"] as? Double)
      let sigma = try #require((c["truth_sigma_m"] as? [String: Any])?["median"] as? Double)
      #expect(sigma > 0 && sigma < 0.5)
      #expect(
        abs(measured - controlled) <= max(0.3, 0.3 * measured),
        "\(t["name"] ?? ""): \(measured) \(controlled)")
    }
  }

  @Test("clicks from simulate --clicks on the recording without truth: errors as the truth measures them")
  func agreesWithTruth() throws {
    let folder = try TemporaryFolder()
    let clicksPath = folder.path + "/clicks.csv"
    let walk = try Self.walk(in: folder, ["--clicks", clicksPath])
    let clicks = try String(contentsOfFile: clicksPath, encoding: .utf8)
    #expect(clicks.hasPrefix("t,name,u,v,sigma_px\n") && clicks.split(separator: "\n").count > 30)
    let truth = try ArsceneRunner.run(["validate", walk.recording, "--scene", Self.scene])
    let control = try ArsceneRunner.run([
      "validate", walk.withoutTruth, "--scene", Self.scene, "--control", clicksPath, "--html",
      folder.path + "/report.html",
    ])
    #expect(truth.status == 0 && control.status == 0, "\(truth.stderr) \(control.stderr)")
    #expect(control.stdout.contains(#""truth_source":"control""#))
    #expect(control.stdout.contains(#""control":{"#) && control.stdout.contains(#""clicks":"#))
    let html = try String(contentsOfFile: folder.path + "/report.html", encoding: .utf8)
    #expect(html.contains("Truth: <b>control points</b>") && html.contains("Error histogram"))
    try Self.expectAgreement(truth: truth.stdout, control: control.stdout)
  }

  @Test(
    "surveyed markers drawn in simulate's frames are found by validate and measure the errors as the truth does"
  )
  func markersInFrames() throws {
    let folder = try TemporaryFolder()
    let walk = try Self.walk(
      in: folder, ["--frames", folder.path + "/frames", "--image-size", "640,480", "--frame-rate", "2"])
    let truth = try ArsceneRunner.run(["validate", walk.recording, "--scene", Self.scene])
    let control = try ArsceneRunner.run(["validate", walk.withoutTruth, "--scene", Self.scene])
    #expect(truth.status == 0 && control.status == 0, "\(truth.stderr) \(control.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(control.stdout.utf8)) as? [String: Any])
    #expect(json["truth_source"] as? String == "control")
    let summary = try #require(json["control"] as? [String: Any])
    #expect((summary["marker_corners"] as? Int ?? 0) >= 12 && summary["clicks"] as? Int == 0, "\(summary)")
    try Self.expectAgreement(truth: truth.stdout, control: control.stdout)
  }

  @Test(
    "bad clicks files name file, line and field; a scene without control points, a bad entry",
    arguments: [
      (
        "t,name,u,v\n1780272001,cp-gate-post,12,13\n1780272001,nowhere,1,2\n", "clicks.csv:3: name: 'nowhere'"
      ),
      ("t,name,u,v\n1780272001,cp-gate-post,nan,13\n", "clicks.csv:2: u: 'nan' is not a finite number"),
      ("t,name,u,v,sigma_px\n1780272001,cp-gate-post,1,2,0\n", "clicks.csv:2: sigma_px: 0.0 is outside"),
      ("time,point,x,y\n", "clicks.csv:1: header"),
      ("t,name,u,v\n1780272001,cp-gate-post,1\n", "clicks.csv:2: line: expected 4 columns"),
      (
        "t,name,u,v\n1780272001.0504,cp-gate-post,1,2\n",
        "clicks.csv:2: t: no frame of the recording within 1 ms"
      ),
    ])
  func badClicks(text: String, message: String) throws {
    let folder = try TemporaryFolder()
    let recording = folder.path + "/walk.jsonl"
    _ = try ArsceneRunner.run([
      "simulate", "--scene", Self.scene, "--seed", "1", "--duration", "5", "-o", recording,
    ])
    let clicks = try folder.write(text, to: "clicks.csv")
    let outcome = try ArsceneRunner.run(["validate", recording, "--scene", Self.scene, "--control", clicks])
    #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test("--control with a scene that has no control points, and bad control-point entries, exit 2")
  func badScenes() throws {
    let folder = try TemporaryFolder()
    let recording = folder.path + "/walk.jsonl"
    _ = try ArsceneRunner.run([
      "simulate", "--scene", Self.scene, "--seed", "1", "--duration", "5", "-o", recording,
    ])
    let clicks = try folder.write("t,name,u,v\n", to: "clicks.csv")
    let plain = try ArsceneRunner.run([
      "validate", recording, "--scene", "Scenes/zavist.json", "--control", clicks,
    ])
    #expect(plain.status == 2 && plain.stderr.contains("has no control_points"), "\(plain.stderr)")
    let survey = try String(
      contentsOfFile: "\(ArsceneRunner.packageRoot.path)/\(Self.scene)", encoding: .utf8)
    for (from, to, message) in [
      (
        #""cp-gate-beam""#, #""cp-gate-post""#,
        "control_points[1].name: 'cp-gate-post' names two control points"
      ),
      (#""sigma_m": 0.02"#, #""sigma_m": -1"#, "control_points[0].sigma_m"),
      (#""height": 439.5"#, #""height": 1e300"#, "control_points[1].geo"),
      (#""aruco_6x6_250""#, #""aruco_9x9""#, "control_points[8].marker.dictionary: 'aruco_9x9' is none of"),
      (#""id": 7"#, #""id": 250"#, "control_points[8].marker.id: aruco_6x6_250 has ids 0 to 249, not 250"),
    ] {
      let broken = survey.replacingOccurrences(of: from, with: to, options: [], range: survey.range(of: from))
      let path = try folder.write(broken, to: "scene.json")
      let outcome = try ArsceneRunner.run(["validate", recording, "--scene", path])
      #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(from): \(outcome.stderr)")
    }
  }
}
