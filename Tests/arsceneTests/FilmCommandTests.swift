import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `arscene film`: presets and LUTs applied to image files, the shipped list, and bad input.
@Suite("arscene film")
struct FilmCommandTests {
  @Test("film list prints each shipped stock as a JSON line")
  func list() throws {
    let outcome = try ArsceneRunner.run(["film", "list"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Line: Decodable { var name: String, title: String, kind: String, description: String }
    let lines = try outcome.stdout.split(separator: "\n").map {
      try JSONDecoder().decode(Line.self, from: Data($0.utf8))
    }
    #expect(lines.count >= 6 && lines.contains { $0.name == "warm-gold-200" && $0.kind == "colour" })
    #expect(lines.contains { $0.kind == "black-and-white" })
  }

  @Test(
    "film apply --preset: a PNG of the input's size, the same bytes for the same seed, other bytes for another"
  )
  func applyPreset() throws {
    let folder = try TemporaryFolder()
    let input = Fixtures.path("film/grade-input.png")
    for (name, seed) in [("a", "1"), ("b", "1"), ("c", "2")] {
      let outcome = try ArsceneRunner.run([
        "film", "apply", "--preset", "warm-gold-200", input, "-o", folder.path + "/\(name).png", "--seed",
        seed,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
    }
    let (a, b, c) = try (
      Data(contentsOf: URL(fileURLWithPath: folder.path + "/a.png")),
      Data(contentsOf: URL(fileURLWithPath: folder.path + "/b.png")),
      Data(contentsOf: URL(fileURLWithPath: folder.path + "/c.png"))
    )
    #expect(a == b && a != c)
    let image = try ImageFile.readRGBA8(folder.path + "/a.png")
    #expect(image.width == 48 && image.height == 32)
  }

  @Test(
    "film apply --lut: colour-science's grade on the encoded values, trilinear or tetrahedral, to the nearest code"
  )
  func applyLUT() throws {
    let folder = try TemporaryFolder()
    for interpolation in ["trilinear", "tetrahedral"] {
      let outcome = try ArsceneRunner.run(
        [
          "film", "apply", "--lut", Fixtures.path("film/grade-17.cube"),
          Fixtures.path("film/grade-input.png"), "-o",
          folder.path + "/out.png",
        ] + (interpolation == "tetrahedral" ? ["--tetrahedral"] : []))
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let out = try ImageFile.readRGBA8(folder.path + "/out.png")
      let expected = try String(
        contentsOfFile: Fixtures.path("film/grade-expected-\(interpolation).txt"), encoding: .utf8
      ).split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
        $0.split(separator: " ").map { Double($0)! }
      }
      for (p, e) in zip(out.pixels, expected) {
        #expect(
          abs(Double(p.x) - e[0] * 255) <= 0.51 && abs(Double(p.y) - e[1] * 255) <= 0.51
            && abs(Double(p.z) - e[2] * 255) <= 0.51)
      }
    }
  }

  @Test(
    "bad input is an error naming it, exit 2, nothing written",
    arguments: [
      (["--preset", "no-such-stock"], "unknown film preset 'no-such-stock'"),
      (["--lut", "BAD_CUBE"], "bad.cube:2: entry 1: expected 3 numbers, found 2"),
      (["--preset", "BAD_PRESET"], "bad.json: stages[0].grain.strength: 5.0 is outside 0.0 to 2.0"),
      (["--preset", "warm-gold-200", "--lut", "BAD_CUBE"], "give --preset or --lut"),
    ])
  func badInput(_ options: [String], _ message: String) throws {
    let folder = try TemporaryFolder()
    try "LUT_3D_SIZE 2\n0 0\n".write(toFile: folder.path + "/bad.cube", atomically: true, encoding: .utf8)
    try #"{"name": "bad", "stages": [{"grain": {"strength": 5}}]}"#.write(
      toFile: folder.path + "/bad.json", atomically: true, encoding: .utf8)
    let resolved = options.map {
      $0 == "BAD_CUBE" ? folder.path + "/bad.cube" : $0 == "BAD_PRESET" ? folder.path + "/bad.json" : $0
    }
    let outcome = try ArsceneRunner.run(
      ["film", "apply"] + resolved + [Fixtures.path("film/grade-input.png"), "-o", folder.path + "/out.png"])
    // Two choices where one is asked for is a usage error; bad files are bad input.
    let expected: Int32 = message.hasPrefix("give ") ? 64 : 2
    #expect(outcome.status == expected && outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.png"))
    let missing = try ArsceneRunner.run([
      "film", "apply", "--preset", "warm-gold-200", folder.path + "/none.png", "-o", folder.path + "/out.png",
    ])
    #expect(missing.status == 2 && missing.stderr.contains("none.png"))
  }
}
