import ARRecording
import ARTestSupport
import Foundation
import Testing

/// `arscene simulate` and `arscene validate`, end to end: reproducible recordings, a report that
/// names every anchor, an HTML report that opens in headless Chromium without a console error.
@Suite("arscene simulate and validate")
struct SimulateValidateCommandTests {
  static let scene = "Scenes/zavist.json"

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("the same seed gives the same bytes, another seed other bytes")
  func reproducible() throws {
    let folder = try TemporaryFolder()
    var texts: [String] = []
    for (name, seed) in [("a", "7"), ("b", "7"), ("c", "8")] {
      let path = folder.path + "/\(name).jsonl"
      let outcome = try ArsceneRunner.run([
        "simulate", "--scene", Self.scene, "--seed", seed, "--duration", "20", "-o", path,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      texts.append(try String(contentsOfFile: path, encoding: .utf8))
    }
    #expect(texts[0] == texts[1] && texts[0] != texts[2])
    #expect(
      texts[0].hasPrefix(#"{"type":"header","format":"arscene-recording","version":1,"source":"simulate""#))
    // 20 s: 601 poses at 30 Hz, a fix a second, truth with every frame.
    let lines = texts[0].split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix(#"{"type":"pose""#) }.count == 601)
    #expect(lines.filter { $0.hasPrefix(#"{"type":"gps""#) }.count <= 21)
    #expect(lines.filter { $0.hasPrefix(#"{"type":"truth""#) }.count == 201)
  }

  @Test("a walk along a GeoJSON path")
  func geoJSONPath() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"nature trail"},"geometry":{"type":"LineString","coordinates":[[14.3950,49.9585],[14.3956,49.9585],[14.3956,49.9590]]}}]}"#,
      to: "trail.geojson")
    let output = folder.path + "/trail.jsonl"
    let outcome = try ArsceneRunner.run([
      "simulate", "--scene", Self.scene, "--seed", "3", "--duration", "60", "--path", path, "-o", output,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    // The walker stays on the trail: every truth record within its bounding box (a few cm).
    let text = try String(contentsOfFile: output, encoding: .utf8)
    for line in text.split(separator: "\n") where line.hasPrefix(#"{"type":"truth""#) {
      let truth = try Self.json(String(line))
      let (lat, lon) = (truth["latitude"] as! Double, truth["longitude"] as! Double)
      #expect(
        (49.9585 - 1e-6...49.9590 + 1e-6).contains(lat) && (14.3950 - 1e-6...14.3956 + 1e-6).contains(lon))
    }
  }

  @Test("validate reports every anchor; --json adds the errors over time; --html opens cleanly in Chromium")
  func validate() throws {
    let folder = try TemporaryFolder()
    let recording = try ArsceneRunner.simulatedWalk(scene: Self.scene, seed: 11, duration: 120, in: folder)
    let (jsonPath, htmlPath) = (folder.path + "/report.json", folder.path + "/report.html")
    let outcome = try ArsceneRunner.run([
      "validate", recording, "--scene", Self.scene, "--json", jsonPath, "--html", htmlPath,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let summary = try Self.json(outcome.stdout)
    #expect(summary["has_truth"] as? Bool == true)
    let anchors = try #require(summary["anchors"] as? [[String: Any]])
    #expect(anchors.map { $0["name"] as? String } == ["gate", "house 1", "house 2", "house 3"])
    for anchor in anchors {
      let error = try #require(anchor["position_error_m"] as? [String: Any])
      let final = try #require(error["final"] as? Double)
      #expect(final >= 0 && final < 15)
      #expect(anchor["raw_position_error_m"] != nil && anchor["reprojection_error_px"] != nil)
    }
    #expect((summary["timeline"] as? [Any])?.isEmpty == true)
    let full = try Self.json(try String(contentsOfFile: jsonPath, encoding: .utf8))
    #expect(((full["timeline"] as? [Any])?.count ?? 0) > 100)
    // The HTML report: self-contained (no script, no external resource), no console message.
    let html = try String(contentsOfFile: htmlPath, encoding: .utf8)
    #expect(
      !html.contains("<script") && !html.contains("http://") || html.contains("http://www.w3.org/2000/svg"))
    #expect(!html.contains("https://"))
    let dom = try Self.openInChromium(htmlPath, profile: folder.path + "/profile")
    #expect(dom?.contains("Anchor validation") == true && dom?.contains("house 3") == true)
  }

  /// The page's DOM as headless Chromium renders it, expecting a clean exit and no console
  /// message; nil (and an issue) when Chromium is not installed.
  static func openInChromium(_ htmlPath: String, profile: String) throws -> String? {
    guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
      Issue.record("chromium is not installed (Tools/bootstrap installs it)")
      return nil
    }
    let chromium = Process()
    chromium.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
    chromium.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
      "--user-data-dir=\(profile)", "--dump-dom", "file://\(htmlPath)",
    ]
    let out = Pipe(), err = Pipe()
    (chromium.standardOutput, chromium.standardError) = (out, err)
    try chromium.run()
    let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    chromium.waitUntilExitPromptly()
    #expect(chromium.terminationStatus == 0)
    #expect(!log.contains("CONSOLE"), "console messages: \(log)")
    return dom
  }

  @Test(
    "a recording without truth: every anchor placed with its σ and stability, the sensors' consistency, no errors"
  )
  func withoutTruth() throws {
    let folder = try TemporaryFolder()
    let recording = folder.path + "/walk.jsonl", untruthful = folder.path + "/no-truth.jsonl"
    _ = try ArsceneRunner.run([
      "simulate", "--scene", Self.scene, "--seed", "5", "--duration", "60", "-o", recording,
    ])
    let text = try String(contentsOfFile: recording, encoding: .utf8)
    try text.split(separator: "\n").filter { !$0.hasPrefix(#"{"type":"truth""#) }.joined(separator: "\n")
      .write(toFile: untruthful, atomically: true, encoding: .utf8)
    let htmlPath = folder.path + "/report.html"
    let outcome = try ArsceneRunner.run(["validate", untruthful, "--scene", Self.scene, "--html", htmlPath])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let summary = try Self.json(outcome.stdout)
    #expect(summary["has_truth"] as? Bool == false && summary["truth_source"] as? String == "none")
    let anchors = try #require(summary["anchors"] as? [[String: Any]])
    #expect(anchors.count == 4)
    for anchor in anchors {
      #expect(anchor["placement"] is [String: Double] && anchor["final_sigma_m"] is Double)
      #expect(anchor["stability"] is [String: Any] && anchor["position_error_m"] == nil)
    }
    let consistency = try #require(summary["consistency"] as? [String: Any])
    #expect(consistency["gps_nis_mean"] is Double && consistency["heading_innovation_rms_deg"] is Double)
    let yaw = try #require((summary["alignment"] as? [String: Any])?["yaw_deg"] as? Double)
    #expect(yaw > -180 && yaw <= 180)
    let dom = try Self.openInChromium(htmlPath, profile: folder.path + "/profile")
    #expect(dom?.contains("No truth in this recording") == true && dom?.contains("house 3") == true)
  }

  @Test("bad input exits 2 (a bad option 64) naming what is wrong, and writes nothing")
  func badInput() throws {
    let folder = try TemporaryFolder()
    let noGeo = try folder.write(
      #"{"output":{"width":64,"height":48},"camera":{"vertical_fov_deg":60,"look_at":{"eye":[0,1,3],"target":[0,0,0]}},"objects":[]}"#,
      to: "plain.json")
    let badPath = try folder.write(#"{"type":"Point","coordinates":[14.3,49.9]}"#, to: "point.geojson")
    let out = folder.path + "/out.jsonl"
    for (arguments, message) in [
      (["simulate", "--scene", noGeo, "--seed", "1", "-o", out], "geo"),
      (["simulate", "--scene", Self.scene, "--seed", "1", "--duration", "0", "-o", out], "--duration"),
      (["simulate", "--scene", Self.scene, "--seed", "1", "-o", folder.path + "/out.csv"], ".jsonl"),
      (["simulate", "--scene", Self.scene, "--seed", "1", "--path", badPath, "-o", out], "LineString"),
      (["validate", folder.path + "/missing.jsonl", "--scene", Self.scene], "missing.jsonl"),
      (["validate", Fixtures.path("recordings/ios_logger"), "--scene", noGeo], "geo"),
    ] {
      let outcome = try ArsceneRunner.run(arguments)
      let expected: Int32 = message.hasPrefix("--") ? 64 : 2
      #expect(
        outcome.status == expected && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}

/// Thousands of recordings: a manifest split into shards, each validated by its own job, merged.
@Suite("arscene validate --manifest --shard --merge")
struct ValidationShardingTests {
  /// 2,000 shard files made from one real shard's JSON (`template`, shard 0/2), each its own
  /// `k/2000` with its recordings renamed, 101 left out (one alone, a run of 100) and one given
  /// twice: `--merge` streams them to the bytes of the library's merge of the same shards in one
  /// process, naming the missing shards (the run as a run) and the repeated one.
  func twoThousandShards(like template: String, in folder: TemporaryFolder) throws {
    let directory = folder.path + "/many"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var files: [String] = [], shards: [ValidationShard] = []
    for k in 0..<2_000 where k != 1234 && !(1500..<1600).contains(k) {
      let text = template.replacingOccurrences(of: #""shard":"0/2""#, with: #""shard":"\#(k)/2000""#)
        .replacingOccurrences(of: "walk", with: "walk-\(k)-")
      let path = directory + "/shard-\(k).json"
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      files.append(path)
      shards.append(try JSONDecoder().decode(ValidationShard.self, from: Data(text.utf8)))
    }
    files.append(files[42])
    let merged = try ArsceneRunner.run(["validate", "--merge"] + files)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(
      merged.stderr.contains("shards missing: 1234/2000, 1500/2000 to 1599/2000 (100 shards)")
        && merged.stderr.contains("42/2000"), "\(merged.stderr)")
    // The command's bytes, and the library's merge through the command's encoder settings.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let library = ValidationBatchSummary(shards + [shards[42]])
    #expect(library.recordings == 2 * 1_899 && library.missingShards.count == 101)
    #expect(
      merged.stdout == String(decoding: try encoder.encode(library), as: UTF8.self) + "\n",
      "the streamed merge differs from the library's")
  }

  @Test(
    "shards of a manifest merge back into every recording, in manifest order; --threads changes nothing but the time"
  )
  func shardsMerge() throws {
    let folder = try TemporaryFolder()
    var names: [String] = []
    for seed in 1...3 {
      let name = "walk\(seed).jsonl"
      let outcome = try ArsceneRunner.run([
        "simulate", "--scene", SimulateValidateCommandTests.scene, "--seed", "\(seed)", "--duration", "30",
        "-o",
        folder.path + "/" + name,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      names.append(name)
    }
    let manifest = try folder.write(
      "# recordings\n" + names.joined(separator: "\n") + "\n", to: "manifest.txt")
    var shardFiles: [String] = []
    for i in 0..<2 {
      let out = folder.path + "/shard\(i).json"
      let outcome = try ArsceneRunner.run([
        "validate", "--manifest", manifest, "--scene", SimulateValidateCommandTests.scene, "--shard",
        "\(i)/2",
        "--json", out,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      shardFiles.append(out)
    }
    let merged = try ArsceneRunner.run(["validate", "--merge"] + shardFiles.reversed())
    #expect(merged.status == 0, "\(merged.stderr)")
    let summary = try SimulateValidateCommandTests.json(merged.stdout)
    #expect(summary["recordings"] as? Int == 3 && (summary["missing_shards"] as? [Any])?.isEmpty == true)
    let order =
      (summary["per_recording"] as? [[String: Any]])?.compactMap { $0["recording"] as? String } ?? []
    #expect(order == names.map { folder.path + "/" + $0 })
    #expect((summary["anchors"] as? [Any])?.count == 4)
    // One shard alone: the merge says which are missing.
    let partial = try ArsceneRunner.run(["validate", "--merge", shardFiles[0]])
    #expect(partial.status == 0 && partial.stderr.contains("shards missing: 1/2"))
    // A shard given twice (a requeued task's rerun): counted once and named; copies that differ,
    // or shards of another split, are refused.
    let twice = try ArsceneRunner.run(["validate", "--merge", shardFiles[0], shardFiles[1], shardFiles[0]])
    let twiceSummary = try SimulateValidateCommandTests.json(twice.stdout)
    #expect(
      twice.status == 0 && twice.stderr.contains("more than once") && twiceSummary["recordings"] as? Int == 3)
    #expect(twiceSummary["duplicate_shards"] as? [String] == ["0/2"])
    let original = try String(contentsOfFile: shardFiles[0], encoding: .utf8)
    let altered = try folder.write(
      original.replacingOccurrences(of: "\"records\":", with: "\"records\":1"), to: "altered.json")
    let differing = try ArsceneRunner.run(["validate", "--merge", shardFiles[0], shardFiles[1], altered])
    #expect(differing.status == 2 && differing.stderr.contains("different results"), "\(differing.stderr)")
    try twoThousandShards(like: original, in: folder)
    let other = try folder.write(#"{"shard":"0/3","recordings":[]}"#, to: "other.json")
    let mixed = try ArsceneRunner.run(["validate", "--merge", shardFiles[0], other])
    #expect(mixed.status == 2 && mixed.stderr.contains("different runs"), "\(mixed.stderr)")
    // The whole manifest on 1 thread and on 3 (a recording a worker): the same report, in the
    // manifest's order; a bad recording among them is named, as one by one would name it.
    let run = { (threads: Int, manifest: String) in
      try ArsceneRunner.run([
        "validate", "--manifest", manifest, "--scene", SimulateValidateCommandTests.scene, "--threads",
        "\(threads)",
      ])
    }
    let (one, three) = (try run(1, manifest), try run(3, manifest))
    #expect(one.status == 0 && three.status == 0 && one.stdout == three.stdout, "\(three.stderr)")
    _ = try folder.write("{\"stream\": \"pose\"\n", to: "broken.jsonl")
    let withBroken = try folder.write(
      ([names[0], "broken.jsonl"] + names.dropFirst()).joined(separator: "\n") + "\n",
      to: "broken-manifest.txt")
    let broken = try run(3, withBroken)
    #expect(broken.status == 2 && broken.stderr.contains("broken.jsonl"), "\(broken.stderr)")
    let noThreads = try run(0, manifest)
    #expect(noThreads.status == 64 && noThreads.stderr.contains("--threads"), "\(noThreads.stderr)")
    // Bad shard specifications: usage errors.
    for bad in ["2/2", "x/3", "auto"] {
      let outcome = try ArsceneRunner.run([
        "validate", "--manifest", manifest, "--scene", SimulateValidateCommandTests.scene, "--shard", bad,
      ])
      #expect(outcome.status == 64 && outcome.stderr.contains("--shard"), "\(bad): \(outcome.stderr)")
    }
  }
}
