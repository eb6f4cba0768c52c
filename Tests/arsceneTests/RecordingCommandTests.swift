import ARTestSupport
import Foundation
import Testing

/// `arscene recording info` and `convert`, end to end on the layout fixtures.
@Suite("arscene recording")
struct RecordingCommandTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("info: streams, counts, duration, rates and what was skipped")
  func info() throws {
    let outcome = try ArsceneRunner.run(["recording", "info", Fixtures.path("recordings/ios_logger")])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let info = try Self.json(outcome.stdout)
    #expect(info["format"] as? String == "ios_logger" && info["records"] as? Int == 13)
    #expect(info["skipped"] as? Int == 3 && outcome.stderr.contains("warning: "))
    let streams = try #require(info["streams"] as? [String: [String: Any]])
    #expect(Set(streams.keys) == ["pose", "frame", "gps", "heading", "magnetometer"])
    #expect(streams["pose"]?["count"] as? Int == 3)
    let rate = try #require(streams["magnetometer"]?["rate_hz"] as? Double)
    #expect(abs(rate - 100) < 0.01)
    #expect(abs((info["duration"] as? Double ?? 0) - 2) < 1e-6)
  }

  @Test(
    "convert to ARScene's format and back to a trajectory keeps every pose",
    arguments: [
      "ios_logger", "stray_scanner", "arkitscenes/41069021",
    ])
  func convert(layout: String) throws {
    let folder = try TemporaryFolder()
    let jsonl = folder.path + "/session.jsonl", tum = folder.path + "/poses.tum"
    let first = try ArsceneRunner.run([
      "recording", "convert", Fixtures.path("recordings/" + layout), "-o", jsonl,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try ArsceneRunner.run(["recording", "convert", jsonl, "-o", tum])
    let report = try Self.json(second.stdout)
    #expect(second.status == 0 && report["written"] as? Int == 3, "\(second.stderr)")
    // The poses are the same as converting the layout directly.
    let direct = folder.path + "/direct.tum"
    let third = try ArsceneRunner.run([
      "recording", "convert", Fixtures.path("recordings/" + layout), "-o", direct,
    ])
    #expect(third.status == 0)
    let a = try String(contentsOfFile: tum, encoding: .utf8),
      b = try String(contentsOfFile: direct, encoding: .utf8)
    #expect(a == b && a.split(separator: "\n").count == 3)
    // The frames' paths still lead to the files from the new folder.
    let text = try String(contentsOfFile: jsonl, encoding: .utf8)
    for line in text.split(separator: "\n") where line.contains(#""type":"frame""#) {
      let frame = try Self.json(String(line))
      for key in ["image", "video", "depth"] {
        guard let path = frame[key] as? String else { continue }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/" + path), "\(key): \(path)")
      }
    }
  }

  @Test("a bad recording exits 2 naming file, line and field, and writes nothing; --lenient warns")
  func badInput() throws {
    let folder = try TemporaryFolder()
    let bad = try folder.write(
      [
        #"{"type":"header","format":"arscene-recording","version":1,"source":"test","time_base":"unix"}"#,
        #"{"type":"pose","t":1,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#,
        #"{"type":"gps","t":2,"latitude":48.2,"longitude":196.4,"horizontal_accuracy":5}"#,
        #"{"type":"pose","t":3,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#,
      ].joined(separator: "\n"), to: "bad.jsonl")
    let out = folder.path + "/out.jsonl"
    let strict = try ArsceneRunner.run(["recording", "convert", bad, "-o", out])
    #expect(strict.status == 2 && strict.stdout.isEmpty)
    #expect(strict.stderr.contains("bad.jsonl:3: longitude: "), "\(strict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left == ["bad.jsonl"])  // no temporary file either
    let lenient = try ArsceneRunner.run(["recording", "convert", bad, "-o", out, "--lenient"])
    #expect(
      lenient.status == 0 && lenient.stderr.contains("warning: ") && lenient.stderr.contains("bad.jsonl:3"))
    let report = try Self.json(lenient.stdout)
    #expect(report["skipped"] as? Int == 1 && report["written"] as? Int == 2)
    // Unknown layouts and names.
    for (arguments, message) in [
      (["recording", "info", folder.path], "not a recording folder"),
      (["recording", "info", bad, "--from", "vicon"], "--from"),
      (["recording", "convert", bad, "-o", folder.path + "/out.bag"], "expected a name ending"),
      (["recording", "info", folder.path + "/missing.jsonl"], "missing.jsonl"),
    ] {
      let outcome = try ArsceneRunner.run(arguments)
      let expected: Int32 = message.hasPrefix("--") ? 64 : 2
      #expect(
        outcome.status == expected && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
    }
  }
}
