import ARGeo
import ARMath
import ARTestSupport
import Testing

/// The example of ARGeo's Getting Started article (ARGeo.docc), kept compiling and correct.
@Test("README geodesy example")
func readmeGeoExample() throws {
  let site = try LocalTangentFrame(
    origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437))
  let house = GeodeticCoordinate(
    latitudeDegrees: 49.958861818199, longitudeDegrees: 14.395174585120, height: 437)
  let enu = site.enu(house)
  #expect(abs(enu.x + 9) < 1e-6 && abs(enu.y - 18) < 1e-6 && abs(enu.z) < 1e-4)
  let line = try Geodesic().inverse(from: site.origin, to: house)
  #expect(abs(line.distance - 20.123) < 1e-3 && abs(line.initialBearingDegrees + 26.565) < 1e-3)
  let declination = try MagneticModel.wmm2025.declination(at: house, decimalYear: 2026.9)
  #expect(abs(declination.degrees - 5.17) < 0.01)

  let alignment = SessionAlignment(yaw: .degrees(20))
  let pose = GeoAnchor(coordinate: house, heading: .degrees(-10)).sessionFromAnchor(
    in: site, alignment: alignment)
  #expect(abs(pose.translation.length - enu.length) < 1e-9)  // a yaw turns, it does not move

  let fixes: [PositionFix] = []
  expectError(GeoError.self, "degenerate") { try SessionAligner.estimate(fixes) }
}
