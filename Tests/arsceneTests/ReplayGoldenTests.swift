import ARTestSupport
import Foundation
import Testing

/// `validate` and `render --recording` give the same bytes as before the app's fused alignment
/// moved into types of its own (`FusedSessionAligner`, `AppSessionAlignment`): any later change
/// to how the app fuses, pairs or orders records shows here first. `ARSCENE_RECORD_GOLDEN=1`
/// writes the files anew instead of comparing (Tests/Fixtures/README.md says how they were made).
@Suite("Validation and replay, byte for byte")
struct ReplayGoldenTests {
  static let golden = Fixtures.path("golden")
  static let recording = ProcessInfo.processInfo.environment["ARSCENE_RECORD_GOLDEN"] == "1"
  static let scene = ArsceneRunner.packageRoot.path + "/Scenes/zavist.json"

  /// Compares `actual` with the golden file `name`, or writes it when recording.
  static func expectGolden(_ actual: Data, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let path = golden + "/" + name
    if recording {
      try actual.write(to: URL(fileURLWithPath: path))
      return
    }
    let expected = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(actual == expected, "\(name) differs from its golden file", sourceLocation: sourceLocation)
  }

  @Test("validate --json of a seeded simulated walk at Závist")
  func simulatedValidation() throws {
    let folder = try TemporaryFolder()
    let walk = try ArsceneRunner.simulatedWalk(scene: Self.scene, seed: 7, duration: 60, in: folder)
    let json = folder.path + "/report.json"
    let validated = try ArsceneRunner.run(["validate", walk, "--scene", Self.scene, "--json", json])
    #expect(validated.status == 0, "\(validated.stderr)")
    try Self.expectGolden(try Data(contentsOf: URL(fileURLWithPath: json)), "validate-zavist-seed7.json")
  }

  @Test(
    "validate --json of the real iPhone recordings in ../shared",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)),
    arguments: [
      ("ios_logger_iphone_2021-07-29T12-52-25", "validate-ios-logger-real.json"),
      ("arkit_data_logger_iphoneXS_2019-07-22", "validate-arkit-data-logger-real.json"),
    ])
  func realValidation(_ name: String, _ goldenName: String) throws {
    let recording = RealData.path("ar_recordings/" + name)
    let folder = try TemporaryFolder()
    let json = folder.path + "/report.json"
    let validated = try ArsceneRunner.run(["validate", recording, "--scene", Self.scene, "--json", json])
    #expect(validated.status == 0, "\(validated.stderr)")
    try Self.expectGolden(try Data(contentsOf: URL(fileURLWithPath: json)), goldenName)
  }

  @Test("render --recording --frames --layers of a seeded walk: every file's digest")
  func replayedFrames() throws {
    let folder = try TemporaryFolder()
    let walk = try ArsceneRunner.simulatedWalk(
      scene: Self.scene, seed: 3, duration: 20, in: folder,
      options: ["--image-size", "160,120", "--frame-rate", "2", "--frames", folder.path + "/pictures"])
    let out = folder.path + "/out"
    let rendered = try ArsceneRunner.run([
      "render", "--recording", walk, "--scene", Self.scene, "--frames", out, "--layers",
    ])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    var digests: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: out) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
      digests[name] = String(format: "%016llx", Self.fnv1a(bytes))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let name = "render-zavist-seed3-frames.json"
    if Self.recording {
      try Self.expectGolden(try encoder.encode(digests), name)
      return
    }
    let expected = try JSONDecoder().decode(
      [String: String].self, from: Data(contentsOf: URL(fileURLWithPath: Self.golden + "/" + name)))
    #expect(digests.count == expected.count)
    for (file, digest) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(digests[file] == digest, "\(file) differs from before")
    }
  }

  /// FNV-1a, 64 bits: a digest that needs no library.
  static func fnv1a(_ bytes: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
