import ARMath
import ARTestSupport
import Foundation
import Testing

/// `arscene pose marker` end to end: the JSON contract.
@Suite("arscene pose")
struct PoseCommandTests {
  // The first view of Tests/Fixtures/pose/markers.txt, and its true pose.
  static let arguments = [
    "pose", "marker", "--size", "0.0642301264813794", "--intrinsics",
    "604.99324702101,607.7811302382217,979.3597516215018,721.510762587178", "--corners",
    "754.9109002043103,597.8151186406391,707.4880700295184,580.3325016824101,753.7075269124957,552.0299284402533,799.7792036116865,567.3762228593462",
  ]
  static let trueTranslation = [-0.22904517023077933, -0.14965946940455452, 0.6156485248475098]

  @Test("prints both solutions, best first, in the OpenCV convention")
  func marker() throws {
    let outcome = try ArsceneRunner.run(Self.arguments)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let solutions = try #require(json["solutions"] as? [[String: Any]])
    #expect(solutions.count == 2)
    #expect(json["ambiguous"] as? Bool == false)
    let t = try #require(solutions[0]["translation"] as? [Double])
    #expect(zip(t, Self.trueTranslation).allSatisfy { abs($0 - $1) < 1e-9 })
    let r = try #require(solutions[0]["rotation"] as? [[Double]])
    #expect(r.count == 3 && r.allSatisfy { $0.count == 3 })
    let e0 = try #require(solutions[0]["reprojection_error_px"] as? Double)
    let e1 = try #require(solutions[1]["reprojection_error_px"] as? Double)
    #expect(e0 < 1e-9 && e1 > e0)
  }

  @Test("--convention arkit turns the camera frame by π about x")
  func arkit() throws {
    let outcome = try ArsceneRunner.run(Self.arguments + ["--convention", "arkit"])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let t = try #require((json["solutions"] as? [[String: Any]])?.first?["translation"] as? [Double])
    #expect(abs(t[0] - Self.trueTranslation[0]) < 1e-9 && abs(t[1] + Self.trueTranslation[1]) < 1e-9)
    #expect(abs(t[2] + Self.trueTranslation[2]) < 1e-9)  // in front of an ARKit camera: negative z
  }

  @Test("degenerate corners exit 2 with a reason")
  func degenerate() throws {
    let repeated = try ArsceneRunner.run([
      "pose", "marker", "--size", "0.1", "--intrinsics", "1000,1000,960,720", "--corners",
      "900,660,900,660,1020,780,900,780",
    ])
    #expect(repeated.status == 2 && repeated.stderr.contains("coincide") && repeated.stdout.isEmpty)
    let collinear = try ArsceneRunner.run([
      "pose", "marker", "--size", "0.1", "--intrinsics", "1000,1000,960,720", "--corners",
      "900,660,1000,660,1100,660,900,780",
    ])
    #expect(collinear.status == 2 && collinear.stderr.contains("collinear"))
    let outside = try ArsceneRunner.run([
      "pose", "marker", "--size", "0.1", "--intrinsics", "1000,1000,960,720", "--corners",
      "900,660,1020,660,1020,780,900,780",
      "--image-size", "1000,700",
    ])
    #expect(outside.status == 2 && outside.stderr.contains("outside"))
  }
}

/// `arscene plane detect` end to end.
@Suite("arscene plane")
struct PlaneCommandTests {
  @Test("detects the floor and the table of a small committed cloud")
  func detect() throws {
    let outcome = try ArsceneRunner.run(
      [
        "plane", "detect", "Tests/Fixtures/pointclouds/floor-table.xyz", "--threshold", "0.008", "--gravity",
        "0,1,0",
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let planes = try #require(json["planes"] as? [[String: Any]])
    #expect(planes.count == 2)
    let offsets = planes.compactMap { $0["offset"] as? Double }.sorted()
    #expect(abs(offsets[0]) < 0.002 && abs(offsets[1] - 0.75) < 0.002)
    #expect(planes.allSatisfy { $0["classification"] as? String == "horizontal" })
    #expect(planes.allSatisfy { ($0["hull"] as? [[Double]])?.count ?? 0 >= 4 })
  }

  @Test("a bad line names the file and line; an empty cloud is no plane")
  func errors() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "arscene-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let bad = dir.appendingPathComponent("bad.xyz")
    try "0 0 0\n0 nan 0\n".write(to: bad, atomically: true, encoding: .utf8)
    let outcome = try ArsceneRunner.run(["plane", "detect", bad.path])
    #expect(outcome.status == 2 && outcome.stderr.contains("bad.xyz:2"))
    let empty = dir.appendingPathComponent("empty.xyz")
    try "# nothing\n".write(to: empty, atomically: true, encoding: .utf8)
    let none = try ArsceneRunner.run(["plane", "detect", empty.path])
    #expect(none.status == 0 && none.stdout == "{\"planes\":[]}\n")
  }

  @Test("a scan of clutter alone is no plane")
  func clutterAlone() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "arscene-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var rng = SplitMix64(seed: 21)
    let scan = dir.appendingPathComponent("clutter.xyz")
    try rng.roomClutter(20_000).map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n")
      .write(to: scan, atomically: true, encoding: .utf8)
    let outcome = try ArsceneRunner.run(["plane", "detect", scan.path])
    #expect(outcome.status == 0 && outcome.stdout == "{\"planes\":[]}\n", "\(outcome.stdout.prefix(200))")
  }
}
