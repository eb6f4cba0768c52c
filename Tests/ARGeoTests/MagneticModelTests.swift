import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

/// WMM2025 against NOAA's published test values and NOAA's own implementation.
@Suite struct MagneticModelTests {
  let model = MagneticModel.wmm2025

  /// NOAA's WMM2025 test values (WMM2025_TEST_VALUES.txt, December 2024): decimal year, height
  /// above the ellipsoid (km), latitude, longitude (°), X, Y, Z (nT), I, D (°), rounded to 0.1 nT
  /// and 0.01°.
  static let published: [[Double]] = [
    [2025.0, 0, 80, 0, 6521.6, 145.9, 54791.5, 83.21, 1.28],
    [2025.0, 0, 0, 120, 39677.8, -109.6, -10580.2, -14.93, -0.16],
    [2025.0, 0, -80, 240, 6117.5, 15751.9, -52022.5, -72.00, 68.78],
    [2025.0, 100, 80, 0, 6216.0, 92.4, 52598.8, 83.26, 0.85],
    [2025.0, 100, 0, 120, 37688.6, -96.2, -10152.1, -15.08, -0.15],
    [2025.0, 100, -80, 240, 5907.6, 14780.3, -49540.7, -72.19, 68.21],
    [2027.5, 0, 80, 0, 6500.8, 294.5, 54869.4, 83.24, 2.59],
    [2027.5, 0, 0, 120, 39701.6, -167.4, -10381.8, -14.65, -0.24],
    [2027.5, 0, -80, 240, 6200.7, 15730.3, -51783.7, -71.92, 68.49],
    [2027.5, 100, 80, 0, 6196.7, 233.8, 52670.5, 83.29, 2.16],
    [2027.5, 100, 0, 120, 37711.5, -148.7, -9969.8, -14.81, -0.23],
    [2027.5, 100, -80, 240, 5984.0, 14760.1, -49317.7, -72.10, 67.93],
  ]

  @Test("reproduces NOAA's published test values", arguments: published)
  func reproducesNOAAsPublishedTestValues(_ row: [Double]) throws {
    let field = try model.field(
      at: GeodeticCoordinate(latitudeDegrees: row[2], longitudeDegrees: row[3], height: row[1] * 1000),
      decimalYear: row[0])
    #expect(abs(field.north - row[4]) <= 0.05 + 1e-9)
    #expect(abs(field.east - row[5]) <= 0.05 + 1e-9)
    #expect(abs(field.down - row[6]) <= 0.05 + 1e-9)
    #expect(abs(field.inclination.degrees - row[7]) <= 0.005 + 1e-9)
    #expect(abs(field.declination.degrees - row[8]) <= 0.005 + 1e-9)
  }

  @Test("agrees with NOAA's implementation at seeded points")
  func agreesWithNOAAsImplementationAtSeededPoints() throws {
    var worstAngle = 0.0, worstField = 0.0
    for row in try geoFixture("wmm2025.txt") {
      let field = try model.field(
        at: GeodeticCoordinate(latitudeDegrees: row[2], longitudeDegrees: row[3], height: row[1] * 1000),
        decimalYear: row[0])
      worstAngle = max(
        worstAngle,
        abs(Angle<Double>(degrees: field.declination.degrees - row[4]).wrappedToPlusMinusPi.degrees),
        abs(field.inclination.degrees - row[5]))
      worstField = max(
        worstField, abs(field.north - row[6]), abs(field.east - row[7]), abs(field.down - row[8]))
    }
    #expect(worstAngle <= 1e-6, "worst angle difference \(worstAngle)°")
    // Two independent implementations in Double: 1e-4 nT is 1/500 of the published rounding.
    #expect(worstField <= 1e-4, "worst component difference \(worstField) nT")
  }

  @Test("the embedded coefficients are the shipped file")
  func theEmbeddedCoefficientsAreTheShippedFile() throws {
    let shipped = try String(
      contentsOfFile: Fixtures.root + "/../../Sources/ARGeo/Magnetic/WMM2025.COF", encoding: .utf8)
    let embedded = try MagneticModel(cofText: shipped)
    #expect(embedded.name == "WMM-2025" && embedded.epoch == 2025 && embedded.degree == 12)
    let here = GeodeticCoordinate(latitudeDegrees: 49.96, longitudeDegrees: 14.40, height: 300)
    #expect(
      try embedded.declination(at: here, decimalYear: 2026.9)
        == model.declination(at: here, decimalYear: 2026.9))
  }

  @Test("dates outside the model are refused") func datesOutsideTheModelAreRefused() throws {
    let here = GeodeticCoordinate(latitudeDegrees: 49.96, longitudeDegrees: 14.40)
    expectError(GeoError.self, "outOfValidity") { try model.declination(at: here, decimalYear: 2024.99) }
    expectError(GeoError.self, "outOfValidity") { try model.declination(at: here, decimalYear: 2030.01) }
    #expect(try MagneticModel.decimalYear(year: 2028, month: 3, day: 1) == 2028 + 60.0 / 366)
    expectError(GeoError.self, "invalidDate") { try MagneticModel.decimalYear(year: 2027, month: 2, day: 29) }
  }

  @Test("bad coefficient files name the line") func badCoefficientFilesNameTheLine() {
    #expect(
      throws: GeoError.badCoefficientFile(line: 3, reason: "expected `n m g h gdot hdot` with 0 ≤ m ≤ n")
    ) {
      try MagneticModel(cofText: "2025.0 TEST 01/01/2025\n1 0 -29351.8 0 12 0\n1 2 3\n")
    }
  }

  @Test("the geographic poles have a finite field") func theGeographicPolesHaveAFiniteField() throws {
    for latitude in [90.0, -90.0] {
      let field = try model.field(
        at: GeodeticCoordinate(latitudeDegrees: latitude, longitudeDegrees: 0), decimalYear: 2026)
      #expect(field.north.isFinite && field.east.isFinite && field.down.isFinite)
    }
  }
}
