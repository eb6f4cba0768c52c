import ARTestSupport
import Foundation
import Testing

/// `arscene geo` end to end, against GeographicLib's values in Tests/Fixtures/geo.
@Suite("arscene geo")
struct GeoCommandTests {
  /// Rows of the ENU fixture that share the first origin.
  static func enuRows() throws -> [[String]] {
    let text = try String(contentsOfFile: Fixtures.path("geo/enu.txt"), encoding: .utf8)
    let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: " ").map(String.init)
    }
    return rows.filter { $0[0...2] == rows[0][0...2] }
  }

  @Test("to-enu matches CartConvert -l to 10 nm and from-enu inverts it")
  func toAndFromENU() throws {
    let rows = try Self.enuRows()
    let origin = rows[0][0...2].joined(separator: ",")
    let input = rows.map { $0[3...5].joined(separator: " ") }.joined(separator: "\n") + "\n"
    let outcome = try ArsceneRunner.run(["geo", "to-enu", "--origin", origin], stdin: input)
    #expect(outcome.status == 0 && outcome.stderr == "")
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == rows.count)
    for (line, row) in zip(lines, rows) {
      let ours = line.split(separator: " ").map { Double($0)! }
      let expected = row[6...8].map { Double($0)! }
      #expect(line.split(separator: " ").allSatisfy { $0.split(separator: ".").last!.count >= 10 })
      #expect(zip(ours, expected).allSatisfy { abs($0 - $1) <= 1e-8 }, "\(line) vs \(row[6...8])")
    }
    let back = try ArsceneRunner.run(["geo", "from-enu", "--origin", origin], stdin: outcome.stdout)
    #expect(back.status == 0)
    for (line, row) in zip(back.stdout.split(separator: "\n"), rows) {
      let ours = line.split(separator: " ").map { Double($0)! }
      #expect(abs(ours[0] - Double(row[3])!) < 1e-11 && abs(ours[2] - Double(row[5])!) < 1e-8)
    }
  }

  @Test("a bad line names its number and exits 2")
  func badLine() throws {
    let outcome = try ArsceneRunner.run(
      ["geo", "to-enu", "--origin", "49.96,14.40,300"], stdin: "49.96 14.40 300\n# comment\n49.9 14.4\n")
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains("stdin:3"))
    let latitude = try ArsceneRunner.run(["geo", "to-enu", "--origin", "49.96,14.40,300"], stdin: "95 0 0\n")
    #expect(
      latitude.status == 2 && latitude.stderr.contains("stdin:1") && latitude.stderr.contains("latitude"))
  }

  @Test("declination reproduces NOAA's WMM2025 test value")
  func declination() throws {
    let outcome = try ArsceneRunner.run(["geo", "declination", "--at", "-80,240,0", "--date", "2025-01-01"])
    #expect(outcome.status == 0)
    #expect(abs(Double(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines))! - 68.78) <= 0.005)
    let late = try ArsceneRunner.run(["geo", "declination", "--at", "0,0,0", "--date", "2030-06-01"])
    #expect(late.status == 2 && late.stderr.contains("valid"))
  }

  @Test("distance matches GeodSolve, southern and western points included")
  func distance() throws {
    let outcome = try ArsceneRunner.run(["geo", "distance", "0,0", "0,180"])
    #expect(outcome.status == 0)
    let fields = outcome.stdout.split(separator: " ").map {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))!
    }
    #expect(abs(fields[0] - 20003931.4586254470) < 1e-6 && fields[1] == 0 && fields[2] == 180)
    let south = try ArsceneRunner.run(["geo", "distance", "-30,0", "29.5,179.5"])
    let s = south.stdout.split(separator: " ").map {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))!
    }
    // GeodSolve -i: 154.378182742780780 25.485870260770724 19937782.2803495191
    #expect(abs(s[0] - 19937782.2803495191) < 1e-6 && abs(s[1] - 154.378182742780780) < 1e-9)
  }

  @Test("geoid prints EGM96's undulation as PROJ's vgridshift gives it, or a height from an altitude")
  func geoid() throws {
    // cct -d 4 +proj=vgridshift +grids=egm96_15.gtx +multiplier=1: 45.4203 at Závist, 22.9012 in
    // Seoul, 27.1212 in Santiago (a southern and western point, not taken for an option).
    for (at, proj) in [("49.9587,14.3953", 45.4203), ("37.57,126.98", 22.9012), ("-33.9,-70.7", 27.1212)] {
      let outcome = try ArsceneRunner.run(["geo", "geoid", "--at", at])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(abs(Double(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines))! - proj) <= 0.01)
    }
    let height = try ArsceneRunner.run(["geo", "geoid", "--at", "37.57,126.98", "--altitude-msl", "100"])
    #expect(height.stdout == "122.901\n")
    let pole = try ArsceneRunner.run(["geo", "geoid", "--at", "91,0"])
    #expect(pole.status == 64 && pole.stderr.contains("latitude"))
    let altitude = try ArsceneRunner.run(["geo", "geoid", "--at", "0,0", "--altitude-msl", "nan"])
    #expect(altitude.status == 64 && altitude.stderr.contains("--altitude-msl"))
  }
}
