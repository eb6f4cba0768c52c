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
    #expect(info["format"] as? String == "ios_logger" && info["records"] as? Int == 21)
    #expect(info["skipped"] as? Int == 3 && outcome.stderr.contains("warning: "))
    let streams = try #require(info["streams"] as? [String: [String: Any]])
    #expect(
      Set(streams.keys) == ["pose", "frame", "gps", "heading", "magnetometer", "accelerometer", "gyroscope"])
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

/// The frames' camera stated on the command line: `--camera NAME`, `--intrinsics`,
/// `--distortion` and `--image-size`, on `recording convert`, `validate` and `render`.
@Suite("arscene: the frames' camera stated by the user")
struct StatedCameraCommandTests {
  /// The ios_logger fixture's frames give intrinsics (Frames.txt) but no image size.
  static let iosLogger = Fixtures.path("recordings/ios_logger")

  @Test("convert --intrinsics --distortion --image-size replaces every frame's camera")
  func convertWithStatedCamera() throws {
    let folder = try TemporaryFolder()
    let out = folder.path + "/session.jsonl"
    let converted = try ArsceneRunner.run([
      "recording", "convert", Self.iosLogger, "-o", out, "--intrinsics", "1500,1501,960,720",
      "--distortion", "0.1,-0.2,0,0", "--image-size", "1920,1440",
    ])
    #expect(converted.status == 0, "\(converted.stderr)")
    let frames = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
      .filter { $0.hasPrefix(#"{"type":"frame""#) }
    #expect(!frames.isEmpty)
    for frame in frames {
      let object = try RecordingCommandTests.json(String(frame))
      #expect(object["intrinsics"] as? [Double] == [1500, 1501, 960, 720])
      #expect(object["size"] as? [Int] == [1920, 1440])
      #expect(object["distortion"] as? [Double] == [0.1, -0.2, 0, 0, 0])
    }
  }

  @Test("an unknown --camera, a size out of range or --camera in scene mode: usage errors (64)")
  func usageErrors() throws {
    let folder = try TemporaryFolder()
    for arguments in [
      ["recording", "info", Self.iosLogger, "--camera", "tum-freiburg9"],
      ["recording", "info", Self.iosLogger, "--image-size", "0,480"],
      ["validate", Self.iosLogger, "--scene", Fixtures.path("scenes/anchor.json"), "--camera", "kinect"],
      [
        "render", Fixtures.path("scenes/anchor.json"), "-o", folder.path + "/a.png", "--camera",
        "tum-freiburg1",
      ],
      [
        "render", "--recording", Self.iosLogger, "--scene", "s.json", "--frames", folder.path,
        "--motion-blur", "2",
      ],
      [
        "render", "--recording", Self.iosLogger, "--scene", "s.json", "--frames", folder.path,
        "--shutter-phase", "-0.1",
      ],
    ] {
      let outcome = try ArsceneRunner.run(arguments)
      #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
    }
  }

  @Test(
    "validate says the jitter's image size came from the principal point, or from --image-size",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func frameSizeOrigin() throws {
    // The real ios_logger capture has no video: its Frames.txt gives intrinsics but no size.
    let recording = RealData.path("ar_recordings/ios_logger_iphone_2021-07-29T12-52-25")
    let folder = try TemporaryFolder()
    // Twice its first principal point (963.67, 694.76) is 1927 × 1390, near the real 1920 × 1440.
    let cases: [([String], String, ClosedRange<Int>)] = [
      ([], "principal_point", 1927...1927), (["--image-size", "1280,960"], "frames", 1280...1280),
    ]
    for (extra, origin, width) in cases {
      let json = folder.path + "/report.json"
      let validated = try ArsceneRunner.run(
        ["validate", recording, "--scene", ReplayGoldenTests.scene, "--json", json] + extra)
      #expect(validated.status == 0, "\(validated.stderr)")
      let report = try RecordingCommandTests.json(String(contentsOfFile: json, encoding: .utf8))
      let session = try #require(report["session"] as? [String: Any])
      let size = try #require(session["frame_size"] as? [String: Any], "\(session)")
      #expect(size["from"] as? String == origin && width.contains(size["width"] as? Int ?? 0), "\(size)")
    }
  }
}
