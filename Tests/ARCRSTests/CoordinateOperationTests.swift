import ARCRS
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Conversions between reference systems against PROJ's own `cs2cs` (Debian proj-bin), on
/// seeded points across each CRS's area.
@Suite("Coordinate reference systems")
struct CoordinateOperationTests {
  /// `cs2cs from to` on `lines`, its numbers.
  static func cs2cs(_ from: String, _ to: String, _ lines: [[Double]]) throws -> [[Double]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cs2cs")
    process.arguments = [from, to, "-f", "%.12f"]
    let (input, output) = (Pipe(), Pipe())
    (process.standardInput, process.standardOutput) = (input, output)
    try process.run()
    input.fileHandleForWriting.write(
      Data(lines.map { $0.map { String($0) }.joined(separator: " ") + "\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExitPromptly()
    return text.split(separator: "\n").map {
      $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
    }
  }

  @Test(
    "seeded points agree with cs2cs: to 1e-9° in geographic CRSs, 1 mm in projected and geocentric ones",
    arguments: [
      // S-JTSK / Křovák East North.
      ("EPSG:5514", "EPSG:4326", [(-900_000.0, -1_230_000.0), (-430_000.0, -935_000.0)]),
      ("EPSG:4326", "EPSG:5514", [(48.6, 12.2), (51.0, 18.8)]),
      ("EPSG:32633", "EPSG:4326", [(300_000.0, 4_000_000.0), (700_000.0, 6_500_000.0)]),  // UTM 33N
      ("EPSG:4326", "EPSG:32633", [(36.0, 12.5), (58.0, 17.5)]),
      ("EPSG:4326", "EPSG:4978", [(-60.0, -170.0), (70.0, 170.0)]),  // WGS84 geocentric
      ("EPSG:4326", "EPSG:3035", [(35.0, -10.0), (70.0, 30.0)]),  // ETRS89 / LAEA Europe
    ])
  func againstCs2cs(_ from: String, _ to: String, _ area: [(Double, Double)]) throws {
    var random = SplitMix64(seed: UInt64(from.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
    let points = (0..<50).map { k -> [Double] in
      let a = Double.random(in: area[0].0...area[1].0, using: &random)
      let b = Double.random(in: area[0].1...area[1].1, using: &random)
      return k % 2 == 0 ? [a, b] : [a, b, Double.random(in: -50...3000, using: &random)]
    }
    let operation = try CoordinateOperation(from: from, to: to)
    let theirs = try Self.cs2cs(from, to, points)
    #expect(theirs.count == points.count)
    let geographic = to == "EPSG:4326"
    for (p, expected) in zip(points, theirs) {
      let ours = try operation.transform(p)
      for axis in 0..<ours.count {
        let tolerance = geographic && axis < 2 ? 1e-9 : 1e-3
        #expect(
          abs(ours[axis] - expected[axis]) <= tolerance,
          "\(p) axis \(axis): \(ours[axis]) against \(expected[axis])")
      }
    }
  }

  @Test("an unknown CRS, and coordinates outside the domain or not finite, are errors that say so")
  func errors() throws {
    #expect { _ = try CoordinateOperation(from: "EPSG:99999", to: "EPSG:4326") } throws: {
      "\($0)".contains("EPSG:99999") && "\($0)".contains("not in PROJ's database")
    }
    let utm = try CoordinateOperation(from: "EPSG:4326", to: "EPSG:32633")
    expectError(CRSError.self, "untransformable") { try utm.transform([.nan, 15]) }
    expectError(CRSError.self, "untransformable") { try utm.transform([50]) }
    expectError(CRSError.self, "untransformable") {
      try CoordinateOperation(from: "EPSG:4326", to: "EPSG:4978").transform([95, 10])
    }
  }

  @Test("easting first: SWEREF 99 TM (EPSG:3006, northing first by its definition) as GIS files store it")
  func eastingFirst() throws {
    // cs2cs EPSG:3006 EPSG:4326 takes northing then easting: 6580822 674032 → 59.330231226922 18.059189736355.
    let authority = try CoordinateOperation(from: "EPSG:3006", to: "EPSG:4326")
    let gis = try CoordinateOperation(from: "EPSG:3006", to: "EPSG:4326", order: .eastingFirst)
    let a = try authority.transform([6_580_822, 674_032]), g = try gis.transform([674_032, 6_580_822])
    #expect(abs(a[0] - 59.330231226922) < 1e-9 && abs(a[1] - 18.059189736355) < 1e-9)
    #expect(abs(g[1] - a[0]) < 1e-12 && abs(g[0] - a[1]) < 1e-12)  // longitude first
  }
}
