import ARTestSupport
import Foundation
import Testing

/// Every input that ever crashed or hung arscene (Tests/Fixtures/regressions/README.md): each
/// ends within 20 s with exit 0, or 2 and one line naming the file.
@Suite("Inputs that once crashed or hung")
struct RegressionInputTests {
  static let folder = Fixtures.path("regressions")

  @Test(
    "each ends in time with exit 0 or 2",
    arguments: [
      (["render", "scene-origin-enu-1e308.json", "-o", "OUT"], "objects[1].anchor.geo"),
      (["render", "scene-origin-height-2e63.json", "-o", "OUT"], "geo.origin: height"),
      (["hit", "--scene", "scene-origin-height-2e63.json", "--tap", "10,10"], "geo.origin: height"),
      (
        ["poi", "replay", "gpx-non-utf8-attribute-name.gpx", "STOPS"],
        "line 2, column 6: byte 0xC3 is not UTF-8"
      ),
      (
        ["poi", "replay", "gpx-non-utf8-element-name.gpx", "STOPS"],
        "line 2, column 21: byte 0xC3 is not UTF-8"
      ),
      (["poi", "replay", "gpx-empty-processing-instruction.gpx", "STOPS"], ""),
      (
        ["poi", "replay", "gpx-instruction-after-broken-declaration.gpx", "STOPS"],
        "gpx-instruction-after-broken-declaration.gpx"
      ),
      (
        ["model", "stats", "usdz-token-size-2e64.usdz"],
        "usdz-token-size-2e64.usdz[triangle-millimetres.usdc]: TOKENS:"
      ),
      (
        ["model", "stats", "usdz-references-own-ancestor.usdz"],
        "usdz-references-own-ancestor.usdz[variants.usdc]: PATHS: a prim named '', not an identifier"
      ),
      (
        ["marker", "detect", "png-header-52992x20558.png"],
        "png-header-52992x20558.png: invalid PNG: the header's 52992x20558 image needs at least"
      ),
      (
        ["marker", "detect", "png-header-cut-52992x52992.png"],
        "png-header-cut-52992x52992.png: invalid PNG: the header's 52992x52992 image needs at least"
      ),
      (
        ["marker", "detect", "png-header-depth-0.png"],
        "png-header-depth-0.png: invalid PNG: the header's 52992x16928 image needs at least"
      ),
      (
        ["marker", "detect", "jpeg-header-65481x65496.jpg"],
        "jpeg-header-65481x65496.jpg: invalid JPEG: the header's 65481x65496 image needs at least"
      ),
      (["render", "GUIDE", "-o", "OUT", "--width", "96", "--height", "72"], ""),
      (["render", "GUIDE", "-o", "OUT", "--width", "200", "--height", "72"], ""),
      (["render", "GUIDE-FILM", "-o", "OUT", "--width", "96", "--height", "72"], ""),
    ] as [([String], String)])
  func endsInTime(_ arguments: [String], _ message: String) throws {
    let output = try TemporaryFolder()
    let root = ArsceneRunner.packageRoot.path
    let resolved = arguments.map { argument -> String in
      switch argument {
      case "OUT": output.path + "/out.png"
      case "STOPS": root + "/Scenes/data/zavist-stops.json"
      case "GUIDE": root + "/Scenes/zavist-guide.json"
      case "GUIDE-FILM": root + "/Scenes/zavist-guide-film.json"
      case _ where [".json", ".gpx", ".usdz", ".png", ".jpg"].contains(where: argument.hasSuffix):
        Self.folder + "/" + argument
      default: argument
      }
    }
    let outcome = try ArsceneRunner.run(resolved, timeout: 20)
    #expect(outcome.status == (message.isEmpty ? 0 : 2), "\(arguments): \(outcome.stderr)")
    #expect(message.isEmpty || outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test("past its time limit a render stops with exit 2, says why, and leaves no file, finished or temporary")
  func timeLimit() throws {
    let output = try TemporaryFolder()
    // 4,000 × 3,000 at 16 samples a pixel takes seconds; a limit of a tenth of one stops it.
    let outcome = try ArsceneRunner.run(
      [
        "render", Fixtures.root + "/../../Scenes/zavist.json", "-o", output.path + "/out.png", "--width",
        "4000",
        "--height", "3000", "--samples", "16",
      ], timeout: 60, environment: ["ARSCENE_TIME_LIMIT": "0.1"])
    #expect(outcome.status == 2, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("time limit") && outcome.stderr.contains("zavist.json"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
  }
}
