import ARFilm
import ARImage
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Presets: the shipped stocks, and preset files' faults.
@Suite("Film presets")
struct FilmLookTests {
  static func photo(width: Int = 96, height: Int = 64) -> RGBA8Image {
    var random = SplitMix64(seed: 350)
    return RGBA8Image(
      width: width, height: height,
      pixels: (0..<(width * height)).map { i in
        let (x, y) = (i % width, i / width)
        let base = SIMD3<Double>(Double(x) / Double(width), Double(y) / Double(height), 0.5)
        let c = base * 220 + SIMD3(repeating: Double.random(in: 0...30, using: &random))
        return SIMD4(UInt8(c.x), UInt8(c.y), UInt8(c.z), 255)
      })
  }

  @Test("every shipped stock loads and gives the same bytes for the same seed on any number of threads")
  func shipped() throws {
    #expect(FilmLook.shipped.count >= 6)
    #expect(FilmLook.shipped.contains("warm-gold-200"))
    let photo = Self.photo()
    for name in FilmLook.shipped {
      let look = try FilmLook(named: name)
      let a = look.apply(to: photo, context: FilmContext(seed: 1, threads: 1))
      let b = look.apply(to: photo, context: FilmContext(seed: 1, threads: 3))
      #expect(a == b, "\(name)")
      #expect(a != photo, "\(name)")
      if look.kind == "black-and-white" {
        #expect(
          a.pixels.allSatisfy { abs(Int($0.x) - Int($0.y)) <= 1 && abs(Int($0.y) - Int($0.z)) <= 1 },
          "\(name)")
      }
    }
  }

  @Test("the warm stock warms: its mean red rises against its blue, and its blacks are lifted")
  func warm() throws {
    let look = try FilmLook(named: "warm-gold-200")
    let grey = RGBA8Image(width: 64, height: 64, fill: SIMD4(118, 118, 118, 255))
    let out = look.apply(to: grey, context: FilmContext(seed: 2))
    let mean =
      out.pixels.reduce(SIMD3<Double>.zero) { $0 + SIMD3(Double($1.x), Double($1.y), Double($1.z)) } / 4096
    #expect(mean.x > mean.z + 5, "\(mean)")
    let black = look.apply(
      to: RGBA8Image(width: 32, height: 32, fill: SIMD4(0, 0, 0, 255)), context: FilmContext())
    #expect(black.pixels[16 * 32 + 16].x >= 8)
  }

  @Test(
    "preset files' faults name the file and the field",
    arguments: [
      (
        #"{"name": "x", "stages": [{"grain": {"iso": 9}}]}"#,
        "p.json: stages[0].grain.iso: 9.0 is outside 25.0 to 6400.0"
      ),
      (#"{"name": "x", "stages": [{"sepia": {}}]}"#, "p.json: stages[0].sepia: unknown stage"),
      (
        #"{"name": "x", "stages": [{"vignette": {"amount": 0.5, "radius": 1}}]}"#,
        "stages[0].vignette.radius: unknown parameter"
      ),
      (
        #"{"name": "x", "stages": [{"vignette": {}, "grain": {}}]}"#,
        "stages[0]: expected an object with one stage's key"
      ),
      (#"{"stages": []}"#, "p.json: name: expected a string"),
      (#"{"name": "x", "stages": [}"#, "p.json: JSON: not valid JSON"),
      (#"{"name": "x", "stages": [{"lut": {"file": "missing.cube"}}]}"#, "missing.cube: cannot read"),
      (#"{"name": "x", "stages": [], "colour": 1}"#, "p.json: colour: unknown member"),
    ])
  func faults(_ text: String, _ message: String) throws {
    let folder = try TemporaryFolder()
    try text.write(toFile: folder.path + "/p.json", atomically: true, encoding: .utf8)
    #expect {
      _ = try FilmLook(path: folder.path + "/p.json")
    } throws: { error in
      "\(error)".contains(message)
    }
    #expect(throws: FilmError.unknownPreset("no-such-stock", known: FilmLook.shipped)) {
      _ = try FilmLook(named: "no-such-stock")
    }
  }

  @Test("a preset's LUT file is found beside it")
  func lutBesidePreset() throws {
    let folder = try TemporaryFolder()
    try String(contentsOfFile: Fixtures.path("film/grade-17.cube"), encoding: .utf8).write(
      toFile: folder.path + "/grade.cube", atomically: true, encoding: .utf8)
    try #"{"name": "graded", "stages": [{"lut": {"file": "grade.cube", "interpolation": "tetrahedral"}}]}"#
      .write(
        toFile: folder.path + "/graded.json", atomically: true, encoding: .utf8)
    let look = try FilmLook(path: folder.path + "/graded.json")
    #expect(look.apply(to: Self.photo(), context: FilmContext()) != Self.photo())
  }
}
