import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// ARScene's recording format: what is written is read back exactly, every line is valid
/// against docs/recording.schema.json, and every kind of bad line is named.
@Suite("ARScene recording format")
struct RecordingFormatTests {
  /// Seeded records of every type, in time order, with optional fields both present and absent.
  static func records(seed: UInt64, count: Int) -> [RecordingRecord] {
    var rng = SplitMix64(seed: seed)
    func x(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
    func maybe<T>(_ value: T) -> T? { Bool.random(using: &rng) ? value : nil }
    var t = x(0...1e9), records: [RecordingRecord] = []
    for i in 0..<count {
      t += x(0...0.1)
      let q = Quaternion<Double>(angle: .radians(x(0...3)), axis: rng.unitVector3())
      switch i % 7 {
      case 0:
        let tracking: TrackingState = [.normal, .notAvailable, .limited(reason: "excessiveMotion")][i / 7 % 3]
        records.append(
          .pose(
            CameraPoseSample(
              time: t,
              worldFromCamera: RigidTransform(
                rotation: q, translation: [x(-1e4...1e4), x(-9...9), x(-1e-9...1e-9)]),
              tracking: tracking)))
      case 1:
        let image: FrameImageSource? = [
          .file("frames/\(i).png"), .video(path: "rgb \"take 2\".mp4", frame: i), nil,
        ][i / 7 % 3]
        records.append(
          .frame(
            CameraFrameSample(
              time: t, index: i,
              intrinsics: maybe(
                Pinhole(fx: x(100...2000), fy: x(100...2000), cx: x(0...1920), cy: x(0...1440))),
              imageSize: maybe(SIMD2(1920, 1440)), image: image, depthPath: maybe("depth/\(i).png"),
              confidencePath: maybe("confidence/\(i).png"),
              lens: [
                .none,
                .radialTangential(
                  k1: x(-0.4...0.4), k2: x(-0.2...0.2), p1: 1e-3, p2: -2e-3, k3: 0, k4: 0, k5: 0, k6: 0),
                .radialTangential(
                  k1: 0.1, k2: -0.02, p1: 0, p2: 0, k3: x(-0.01...0.01), k4: 0.05, k5: 0, k6: -0.001),
                .fisheye(k1: x(-0.1...0.1), k2: 0.01, k3: -0.002, k4: 0.0003),
              ][i / 5 % 4])))
      case 2:
        records.append(
          .gps(
            GPSFix(
              time: t, latitude: x(-90...90), longitude: x(-180...180), height: maybe(x(-100...4000)),
              altitudeMSL: maybe(x(-100...4000)), horizontalAccuracy: x(0...100),
              verticalAccuracy: maybe(x(0...50)),
              courseDegrees: maybe(x(0...359.99)), speed: maybe(x(0...40)))))
      case 3:
        records.append(
          .heading(
            HeadingSample(
              time: t, trueHeadingDegrees: maybe(x(0...359.99)), magneticHeadingDegrees: x(0...359.99),
              accuracyDegrees: maybe(x(0...180)))))
      case 4:
        records.append(
          .magnetometer(MagnetometerSample(time: t, field: [x(-60...60), x(-60...60), x(-60...60)])))
      case 5:
        records.append(
          .tap(TapSample(time: t, point: [x(0...1920), x(0...1440)], expected: maybe("LI4 – Hégu"))))
      default:
        records.append(
          .truth(
            GroundTruthSample(
              time: t, latitude: x(-90...90), longitude: x(-180...180), height: x(-100...4000),
              localFromCamera: q,
              localFromWorld: maybe(
                RigidTransform(rotation: q.conjugate, translation: [x(-9...9), 0, x(-9...9)])))))
      }
    }
    return records
  }

  @Test("every record type is read back exactly as written (seeded)")
  func roundTrip() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/walk.jsonl"
    let written = Self.records(seed: 7, count: 700)
    let header = RecordingHeader(source: "arscene", timeBase: .session, description: "seed 7\nline two")
    let writer = try RecordingWriter(path: path, header: header)
    for record in written { try writer.write(record) }
    try writer.finish()
    let reader = try RecordingReader(path: path)
    #expect(reader.format == .arscene && reader.header == header)
    var read: [RecordingRecord] = []
    try reader.forEach { read.append($0) }
    #expect(read.count == written.count)
    for (a, b) in zip(read, written) where a != b {
      Issue.record("\(RecordingLineCodec.line(a))\n≠ \(RecordingLineCodec.line(b))")
      break
    }
    #expect(reader.skipped == 0)
  }

  @Test("every line is valid against docs/recording.schema.json (Python jsonschema)")
  func schema() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/walk.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "arscene", timeBase: .unix))
    for record in Self.records(seed: 8, count: 210) { try writer.write(record) }
    try writer.finish()
    let schema = Fixtures.root + "/../../docs/recording.schema.json"
    let script = """
      import json, sys
      from jsonschema import Draft202012Validator
      v = Draft202012Validator(json.load(open(sys.argv[1])))
      bad = 0
      for n, line in enumerate(open(sys.argv[2]), 1):
          for e in v.iter_errors(json.loads(line)):
              bad += 1
              print(f"line {n}: {e.message}")
      # The schema must also refuse what the reader refuses.
      for wrong in [{"type": "gps", "t": 1, "latitude": 91, "longitude": 0, "horizontal_accuracy": 1},
                    {"type": "pose", "t": 1, "translation": [0, 0], "rotation_xyzw": [0, 0, 0, 1]},
                    {"type": "header", "format": "arscene-recording", "version": 2, "source": "a", "time_base": "unix"},
                    {"type": "heading", "t": 1, "magnetic_heading_deg": 360},
                    {"type": "tap", "t": 1, "point": [1, 2], "colour": "red"}]:
          if v.is_valid(wrong):
              bad += 1
              print("accepted", wrong)
      sys.exit(1 if bad else 0)
      """
    let outcome = try PythonPeer.run(script, arguments: [schema, path], packages: "jsonschema")
    #expect(outcome.status == 0, "\(outcome.output)")
  }

  /// A recording of `lines` after a valid header.
  static func file(_ lines: [String], in folder: TemporaryFolder, name: String = "bad.jsonl") throws -> String
  {
    let header =
      #"{"type":"header","format":"arscene-recording","version":1,"source":"test","time_base":"unix"}"#
    return try folder.write(([header] + lines).joined(separator: "\n"), to: name)
  }

  static let pose = #"{"type":"pose","t":1,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#

  @Test(
    "a bad line is an error naming the file, line and field; --lenient skips and counts it",
    arguments: [
      // (the offending line, the field the error names)
      (#"{"type":"pose","t":0.5,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#, "t"),  // before
      (#"{"type":"pose","t":1,"translation":[1,0,0],"rotation_xyzw":[0,0,0,1]}"#, "t"),  // repeated
      (#"{"type":"pose","t":2,"translation":[0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"rotation_xyzw":[0,0,0,1]}"#, "translation"),  // missing
      (#"{"type":"pose","t":2,"translation":[0,0,0],"rotation_xyzw":[0,0,0,0]}"#, "rotation_xyzw"),
      (#"{"type":"pose","t":2,"translation":[NaN,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[01,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[+1,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[.5,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[1.,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[1e,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[-,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[1e999,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"translation":[0x1,0,0],"rotation_xyzw":[0,0,0,1]}"#, "translation"),
      (#"{"type":"pose","t":2,"t":2,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#, "t"),  // twice
      (#"{"type":"pose","t":2,"x_a":1,"x_a":2,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#, "x_a"),
      (#"{"type":"pose","t":2,"latitude":1,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#, "latitude"),
      (#"{"type":"gps","t":2,"latitude":91,"longitude":0,"horizontal_accuracy":3}"#, "latitude"),
      (#"{"type":"gps","t":2,"latitude":45,"longitude":-181,"horizontal_accuracy":3}"#, "longitude"),
      (#"{"type":"gps","t":2,"latitude":45,"longitude":7,"horizontal_accuracy":-1}"#, "horizontal_accuracy"),
      (#"{"type":"heading","t":2,"magnetic_heading_deg":400}"#, "magnetic_heading_deg"),
      (#"{"type":"frame","t":2,"index":1.5}"#, "index"),
      (#"{"type":"frame","t":2,"index":1,"distortion":[0.1,0.2,0]}"#, "distortion"),
      (#"{"type":"frame","t":2,"index":1,"distortion":[0.1,0.2,0,0,0,0,0,0,0]}"#, "distortion"),
      (#"{"type":"frame","t":2,"index":1,"fisheye":[0.1,0.2,0,0,0]}"#, "fisheye"),
      (#"{"type":"frame","t":2,"index":1,"distortion":[0.1,0,0,0],"fisheye":[0,0,0,0]}"#, "fisheye"),
      (#"{"type":"frame","t":2,"index":1,"distortion":"none"}"#, "distortion"),
      (#"{"type":"tap","t":2,"point":[1,2],"colour":"red"}"#, "colour"),
      (#"{"type":"wave","t":2}"#, "type"),
      (#"{"type":"pose","t":2,"translation":[0,0,0],"rotation_xy"#, "line"),  // truncated
    ])
  func badLine(line: String, field: String) throws {
    let folder = try TemporaryFolder()
    let after = #"{"type":"pose","t":3,"translation":[0,0,0],"rotation_xyzw":[0,0,0,1]}"#
    let path = try Self.file([Self.pose, line, after], in: folder)
    do {
      let reader = try RecordingReader(path: path)
      try reader.forEach { _ in }
      Issue.record("no error for \(line)")
    } catch {
      #expect(error.description.hasPrefix("\(path):3: \(field): "), "\(error)")
    }
    let lenient = try RecordingReader(path: path, lenient: true)
    var count = 0
    try lenient.forEach { _ in count += 1 }
    #expect(count == 2 && lenient.skipped == 1)
    #expect(lenient.warnings.first?.hasPrefix("\(path):3: \(field): ") == true)
  }

  @Test(
    "a bad line deep in a file read in parallel runs names its own line, whatever run it fell in",
    arguments: [1_234, 4_321, 9_999])
  func badLineInALaterRun(at bad: Int) throws {
    let folder = try TemporaryFolder()
    // About 80 bytes a line: 10,000 lines are several of the reader's runs.
    var lines: [String] = []
    for i in 2...10_000 {
      lines.append(
        i == bad
          ? #"{"type":"pose","t":\#(i),"translation":[0,0],"rotation_xyzw":[0,0,0,1]}"#
          : #"{"type":"pose","t":\#(i),"translation":[0.25,1.5,-3],"rotation_xyzw":[0,0,0,1]}"#)
    }
    let path = try Self.file(lines, in: folder)
    do {
      try RecordingReader(path: path).forEach { _ in }
      Issue.record("no error")
    } catch {
      #expect(error.description.hasPrefix("\(path):\(bad): translation: "), "\(error)")
    }
    let lenient = try RecordingReader(path: path, lenient: true)
    var count = 0
    try lenient.forEach { _ in count += 1 }
    #expect(count == 9_998 && lenient.warnings.first?.hasPrefix("\(path):\(bad): ") == true)
  }

  @Test("an unknown version or time base, a missing header and an empty file are refused whole")
  func badHeader() throws {
    let folder = try TemporaryFolder()
    let future = try folder.write(
      #"{"type":"header","format":"arscene-recording","version":2,"source":"x","time_base":"unix"}"# + "\n"
        + Self.pose,
      to: "v2.jsonl")
    #expect(
      throws: RecordingError.badRecord(
        path: future, line: 1, field: "version", reason: "version 2 is unknown; this build reads version 1")
    ) {
      _ = try RecordingReader(path: future, lenient: true)
    }
    let clock = try folder.write(
      #"{"type":"header","format":"arscene-recording","version":1,"source":"x","time_base":"gps"}"# + "\n"
        + Self.pose,
      to: "gps-clock.jsonl")
    #expect(
      throws: RecordingError.badRecord(
        path: clock, line: 1, field: "time_base",
        reason: "'gps' is not one of unix, uptime, session, index, unknown")
    ) {
      _ = try RecordingReader(path: clock, lenient: true)
    }
    let headless = try folder.write(Self.pose, to: "headless.jsonl")
    expectError(RecordingError.self, "unknownFormat") { _ = try RecordingReader(path: headless) }
    let empty = try folder.write("", to: "empty.jsonl")
    #expect(throws: RecordingError.unknownFormat(path: empty, reason: "empty: no header line")) {
      _ = try RecordingReader(path: empty)
    }
  }
}
