import ARTestSupport
import Foundation
import Testing

/// `arscene raycast` and `arscene hit` end to end.
@Suite("arscene raycast and hit")
struct HitCommandTests {
  @Test("raycast prints t triangle u v, or miss")
  func raycast() throws {
    // The cube fixture spans 0…1; a ray down through (0.5, 0.5) hits its top at t = 1.
    let outcome = try ArsceneRunner.run(
      ["raycast", "--mesh", "Tests/Fixtures/obj/cube_quads.obj", "--decimals", "6"],
      stdin: "0.25 2 0.5 0 -1 0\n# comment\n5 5 5 0 1 0\n")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("1.000000 "))
    #expect(lines[1] == "miss")
  }

  @Test("raycast names what the model's reader left out: a mesh whose points are not 3-vectors is not hit")
  func raycastNamesWhatIsLeftOut() throws {
    let folder = try TemporaryFolder()
    let model = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def Mesh "Triangle" {
          point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
      }
      def Mesh "Flat" {
          float2[] points = [(0, 0), (1, 0), (0, 1)]
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
      }
      """, to: "two.usda")
    let outcome = try ArsceneRunner.run(["raycast", "--mesh", model], stdin: "0.25 0.25 1 0 0 -1\n")
    #expect(
      outcome.status == 0 && outcome.stdout.hasPrefix("1.000000000 0 "), "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stderr.contains("/Flat"), "\(outcome.stderr)")
  }

  @Test("a model in UTM coordinates: stats and rays answer in the file's coordinates, to the micrometre")
  func utm() throws {
    let stats = try ArsceneRunner.run(["obj", "stats", "Tests/Fixtures/obj/utm_triangles.obj"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    let bounds = try #require(json["bounds"] as? [String: [Double]])
    #expect(
      bounds["min"] == [455_210.30, 5_535_210.30, 420.10]
        && bounds["max"] == [455_210.90, 5_535_210.90, 420.35])
    // Down through the middle of the first triangle, 2 m above it: Float alone would have moved
    // its vertices by up to 0.25 m, and this ray would have missed.
    let outcome = try ArsceneRunner.run(
      ["raycast", "--mesh", "Tests/Fixtures/obj/utm_triangles.obj"],
      stdin: "455210.5 5535210.5 422.1 0 0 -1\n")
    let fields = outcome.stdout.split(separator: " ")
    #expect(
      outcome.status == 0 && fields.count == 4 && fields[1] == "0", "\(outcome.stdout)\(outcome.stderr)")
    #expect(abs((Double(fields.first ?? "") ?? 0) - 2) < 1e-6)
  }

  @Test("raycast refuses a zero-length ray, naming its line")
  func badRay() throws {
    let outcome = try ArsceneRunner.run(
      ["raycast", "--mesh", "Tests/Fixtures/obj/cube_quads.obj"], stdin: "0 2 0 0 -1 0\n0 0 0 0 0 0\n")
    #expect(outcome.status == 2 && outcome.stdout.isEmpty)
    #expect(outcome.stderr.contains("stdin:2") && outcome.stderr.contains("zero length"))
  }

  @Test("hit selects LI4 on the shipped hand scene and explains the rest")
  func hit() throws {
    let outcome = try ArsceneRunner.run([
      "hit", "--scene", "Scenes/acupressure-hand.json", "--tap", "430,292",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(json["hit"] as? String == "LI4")
    let candidates = try #require(json["candidates"] as? [[String: Any]])
    #expect(candidates.count == 11)
    #expect(candidates[0]["verdict"] as? String == "accepted")
    #expect(candidates.dropFirst().allSatisfy { $0["accepted"] as? Bool == false })
    // At 0.34 m the 5 mm sphere is about 30 pixels across: the exact policy hits it too.
    let exact = try ArsceneRunner.run(
      ["hit", "--scene", "Scenes/acupressure-hand.json", "--tap", "430,292", "--policy", "exact"])
    #expect(exact.stdout.contains("\"hit\":\"LI4\""))
  }

  @Test("hit refuses a tap outside the view and an unknown policy")
  func hitErrors() throws {
    let outside = try ArsceneRunner.run(["hit", "--scene", "Scenes/acupressure-hand.json", "--tap", "-5,10"])
    #expect(outside.status == 2 && outside.stderr.contains("outside"))
    let policy = try ArsceneRunner.run(
      ["hit", "--scene", "Scenes/acupressure-hand.json", "--tap", "5,10", "--policy", "cone"])
    #expect(policy.status == 64 && policy.stderr.contains("--policy"))
  }
}
