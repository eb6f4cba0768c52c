import Foundation
import Testing

/// `arscene crs convert`: cs2cs's contract, lines in and lines out.
@Suite("arscene crs")
struct CrsCommandTests {
  @Test("S-JTSK (Křovák) to WGS84, as cs2cs converts it; comments and blank lines skipped; heights kept")
  func krovak() throws {
    let input = "# Prague, Old Town Square\n-742000 -1043000\n\n-742000.123,-1043000.456, 250\n"
    let outcome = try ArsceneRunner.run(
      ["crs", "convert", "--from", "EPSG:5514", "--to", "EPSG:4326"], stdin: input)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stdout.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
    // cs2cs EPSG:5514 EPSG:4326 -f %.12f (PROJ 9.1): 50.088571828458 14.432438165449, and
    // 50.088567644151 14.432437362688 250.
    #expect(lines.count == 2 && lines[1].count == 3 && lines[1][2] == 250)
    #expect(abs(lines[0][0] - 50.088571828458) < 1e-9 && abs(lines[0][1] - 14.432438165449) < 1e-9)
    #expect(abs(lines[1][0] - 50.088567644151) < 1e-9 && abs(lines[1][1] - 14.432437362688) < 1e-9)
  }

  @Test(
    "an unknown CRS or a bad line is an error naming it, exit 2",
    arguments: [
      (["--from", "EPSG:99999", "--to", "EPSG:4326"], "1 2\n", "EPSG:99999"),
      (["--from", "EPSG:5514", "--to", "EPSG:4326"], "-742000 -1043000\n-742000 north\n", "stdin:2"),
      (["--from", "EPSG:4326", "--to", "EPSG:32633"], "50 14\n95 14\n", "stdin:2"),
    ])
  func errors(_ options: [String], _ input: String, _ message: String) throws {
    let outcome = try ArsceneRunner.run(["crs", "convert"] + options, stdin: input)
    #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(outcome.stderr)")
  }
}
