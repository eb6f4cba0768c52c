import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

/// The EGM96 geoid against PROJ: the shipped grid node for node against proj-data's
/// `egm96_15.gtx`, and the interpolated undulation against PROJ's `vgridshift` (through `cct`,
/// Debian proj-bin) anywhere on Earth.
@Suite("EGM96 geoid")
struct GeoidTests {
  static let gtx = "/usr/share/proj/egm96_15.gtx"
  static let cct = "/usr/bin/cct"
  static var projAvailable: Bool {
    FileManager.default.fileExists(atPath: gtx) && FileManager.default.isExecutableFile(atPath: cct)
  }
  static let projAbsent =
    "PROJ's cct (proj-bin) or egm96_15.gtx (proj-data) is not installed: Tools/test installs them"

  /// PROJ's undulation (metres) at each (latitude, longitude), from one `cct` run over a file
  /// (a file, not a pipe: thousands of lines both ways would fill the pipes and stall).
  static func proj(_ places: [(latitude: Double, longitude: Double)]) throws -> [Double] {
    let folder = try TemporaryFolder()
    let input = try folder.write(places.map { "\($0.longitude) \($0.latitude) 0\n" }.joined(), to: "in.txt")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cct)
    // vgridshift adds multiplier × N to the height: with 1, a height of 0 becomes N.
    process.arguments = [
      "-d", "6", "-o", folder.path + "/out.txt", "+proj=vgridshift", "+grids=egm96_15.gtx", "+multiplier=1",
      input,
    ]
    try process.run()
    process.waitUntilExitPromptly()
    let text = try String(contentsOfFile: folder.path + "/out.txt", encoding: .utf8)
    return text.split(separator: "\n").map { line in
      Double(line.split(separator: " ", omittingEmptySubsequences: true)[2]) ?? .nan
    }
  }

  @Test(
    "within 5 cm of PROJ's vgridshift at 3,000 seeded places, the poles, the antimeridian and the nodes",
    .enabled(if: projAvailable, Comment(rawValue: projAbsent)))
  func agreesWithPROJ() throws {
    var rng = SplitMix64(seed: 96)
    var places: [(latitude: Double, longitude: Double)] = [
      (90, 0), (-90, 0), (89.9, 179.99), (-89.9, -179.99), (0, 180), (0, -180), (12.3, 179.875),
      (-45.6, -179.875), (49.9587, 14.3953), (37.57, 126.98), (0, 0), (27.5, 87.5), (-8, 147),
    ]
    for _ in 0..<3000 {
      places.append((Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng)))
    }
    let theirs = try Self.proj(places)
    #expect(theirs.count == places.count)
    var worst = 0.0
    for (place, n) in zip(places, theirs) {
      let ours = try Geoid.egm96.undulation(latitude: place.latitude, longitude: place.longitude)
      worst = max(worst, abs(ours - n))
      #expect(abs(ours - n) <= 0.05, "at \(place): \(ours) m against PROJ's \(n) m")
    }
    // The grid is kept to the centimetre: far better than the 5 cm asked.
    #expect(worst <= 0.006, "worst \(worst) m")
  }

  @Test(
    "the shipped grid is proj-data's egm96_15.gtx, node for node, to the centimetre",
    .enabled(if: FileManager.default.fileExists(atPath: gtx), Comment(rawValue: projAbsent)))
  func gridIsPROJs() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.gtx))
    #expect(data.count == 40 + 721 * 1440 * 4)
    var worst = 0.0
    data.withUnsafeBytes { raw in
      for node in stride(from: 0, to: 721 * 1440, by: 7) {
        let bits = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 40 + 4 * node, as: UInt32.self))
        let metres = Double(Float(bitPattern: bits))
        let (row, column) = node.quotientAndRemainder(dividingBy: 1440)
        let ours = try? Geoid.egm96.undulation(
          latitude: -90 + 0.25 * Double(row), longitude: -180 + 0.25 * Double(column))
        worst = max(worst, abs((ours ?? .nan) - metres))
      }
    }
    #expect(worst <= 0.005 + 1e-9, "worst \(worst) m")
  }

  @Test("known undulations: Závist 45.4 m, Seoul 22.9 m; heights from altitudes; bad places refused")
  func knownValues() throws {
    #expect(abs(try Geoid.egm96.undulation(latitude: 49.9587, longitude: 14.3953) - 45.42) < 0.01)
    #expect(abs(try Geoid.egm96.undulation(latitude: 37.57, longitude: 126.98) - 22.90) < 0.01)
    // The wrap: a longitude and the same plus or minus 360° are the same place.
    let a = try Geoid.egm96.undulation(latitude: -33.9, longitude: 151.2)
    #expect(abs(try Geoid.egm96.undulation(latitude: -33.9, longitude: 151.2 - 720) - a) < 1e-9)
    #expect(
      try Geoid.egm96.ellipsoidalHeight(altitudeMSL: 400, latitude: 49.9587, longitude: 14.3953)
        == 400 + (try Geoid.egm96.undulation(latitude: 49.9587, longitude: 14.3953)))
    expectError(GeoError.self, "invalidCoordinate") {
      _ = try Geoid.egm96.undulation(latitude: 91, longitude: 0)
    }
    expectError(GeoError.self, "invalidCoordinate") {
      _ = try Geoid.egm96.undulation(latitude: 0, longitude: .nan)
    }
  }
}
