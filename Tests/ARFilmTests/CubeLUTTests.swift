import ARFilm
import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `.cube` LUTs: colour-science's own application of a LUT it wrote (Tools/generate-film-fixtures),
/// and the files' faults.
@Suite("Cube LUTs")
struct CubeLUTTests {
  @Test(
    "a LUT made by colour-science, applied to an image's encoded values, matches colour-science's application within 1/1000",
    arguments: [CubeLUT.Interpolation.trilinear, .tetrahedral])
  func colourScience(_ interpolation: CubeLUT.Interpolation) throws {
    let lut = try CubeLUT(path: Fixtures.path("film/grade-17.cube"))
    #expect(lut.kind == .threeDimensional && lut.size == 17 && !lut.isIdentity)
    let image = try ImageFile.readRGBA8(Fixtures.path("film/grade-input.png"))
    let text = try String(
      contentsOfFile: Fixtures.path("film/grade-expected-\(interpolation.rawValue).txt"), encoding: .utf8)
    let expected = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: " ").map { Float($0)! }
    }
    try #require(expected.count == image.pixels.count)
    var worst: Float = 0
    for (p, e) in zip(image.pixels, expected) {
      let out = lut.apply(SIMD3(Float(p.x), Float(p.y), Float(p.z)) / 255, interpolation: interpolation)
      worst = max(worst, abs(out.x - e[0]), abs(out.y - e[1]), abs(out.z - e[2]))
    }
    #expect(worst < 0.001, "\(worst)")
    // Tetrahedral keeps greys grey where the table does; both agree at the lattice points.
    let corner = lut.apply(SIMD3(0.5, 0.5, 0.5), interpolation: interpolation)
    #expect(corner == lut.table[8 + 8 * 17 + 8 * 289])
  }

  @Test("a 1D LUT maps each channel through its own curve, with the domain's range")
  func oneDimensional() throws {
    let lut = try CubeLUT(
      text:
        "TITLE \"halve\"\nLUT_1D_SIZE 3\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n0 0 0\n0.5 0.25 1\n1 0.5 1\n",
      path: "halve.cube")
    #expect(lut.title == "halve" && lut.kind == .oneDimensional)
    let out = lut.apply(SIMD3(1, 0.5, 3))
    #expect(out == SIMD3(0.5, 0.125, 1))
  }

  @Test(
    "malformed files are errors naming the file, the line and what is wrong",
    arguments: [
      ("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n", "t.cube:4: entries: expected 8 entries for size 2, found 3"),
      ("LUT_3D_SIZE 1\n0 0 0\n", "t.cube:1: LUT_3D_SIZE: expected a size from 2 to 256"),
      ("LUT_3D_SIZE 2\n0 0\n", "t.cube:2: entry 1: expected 3 numbers, found 2"),
      ("LUT_1D_SIZE 2\n0 0 zero\n1 1 1\n", "t.cube:2: entry 1: 'zero' is not a finite number"),
      (
        "LUT_1D_SIZE 2\nDOMAIN_MIN 0 0 1\n0 0 0\n1 1 1\n", "domain's minimum 1.0 is not below its maximum 1.0"
      ),
      ("0 0 0\n", "t.cube:1: entry: an entry before LUT_1D_SIZE or LUT_3D_SIZE"),
      ("LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n", "t.cube:2: LUT_3D_SIZE: a second size line"),
      ("LUT_1D_SIZE 2\n0 0 nan\n1 1 1\n", "'nan' is not a finite number"),
      ("FOO 1\n", "t.cube:1: FOO: unknown keyword"),
    ])
  func malformed(_ text: String, _ message: String) {
    #expect {
      _ = try CubeLUT(text: text, path: "t.cube")
    } throws: { error in
      "\(error)".contains(message)
    }
  }
}
