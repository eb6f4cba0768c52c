import ARGeo
import ARMath
import ARTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// ECEF and ENU against GeographicLib's CartConvert over seeded points and the hard places.
@Suite struct GeodeticConversionTests {
  static let nanometres10 = 10e-9

  @Test("geodetic to ECEF matches GeographicLib") func geodeticToECEFMatchesGeographicLib() throws {
    var worst = 0.0
    for row in try geoFixture("ecef-forward.txt") {
      let p = GeodeticCoordinate(latitudeDegrees: row[0], longitudeDegrees: row[1], height: row[2])
      let ours = Ellipsoid.wgs84.ecef(p)
      worst = max(worst, (ours - SIMD3(row[3], row[4], row[5])).length)
    }
    #expect(worst <= Self.nanometres10, "worst ECEF error \(worst) m")
  }

  #if arch(x86_64) && os(Linux)
    @Test(
      "geodetic to ECEF matches an 80-bit evaluation within 3 nm at any longitude (as with libm's sines: 2.4 nm), and is exact at the quarter turns"
    )
    func geodeticToECEFMatchesExtendedPrecision() {
      // The reference in Float80 (64-bit significands): its sines, cosines and the conversion
      // to radians are 2¹¹ times finer than a Double's, so what remains is ours. (With libm's
      // sines in place of the series the worst is the same 2.4 nm: the rest of the formula's
      // rounding.)
      let a = Float80(Ellipsoid.wgs84.equatorialRadius), e2 = Float80(Ellipsoid.wgs84.eccentricitySquared)
      func reference(_ lat: Double, _ lon: Double, _ h: Double) -> SIMD3<Double> {
        let phi = Float80(lat) * Float80.pi / 180, lambda = Float80(lon) * Float80.pi / 180
        let n = a / (1 - e2 * sinl(phi) * sinl(phi)).squareRoot()
        let r = (n + Float80(h)) * cosl(phi)
        return SIMD3(
          Double(r * cosl(lambda)), Double(r * sinl(lambda)), Double((n * (1 - e2) + Float80(h)) * sinl(phi)))
      }
      var random = SplitMix64(seed: 36)
      var worst = 0.0
      for _ in 0..<100_000 {
        let (lat, lon) = (
          Double.random(in: -90...90, using: &random), Double.random(in: -720...720, using: &random)
        )
        let h = Double.random(in: -500...9000, using: &random)
        let p = GeodeticCoordinate(latitudeDegrees: lat, longitudeDegrees: lon, height: h)
        worst = max(worst, (Ellipsoid.wgs84.ecef(p) - reference(lat, lon, h)).length)
      }
      #expect(worst <= 3e-9, "worst ECEF error \(worst) m")
      // At the quarter turns the sines and cosines are exactly 0 and ±1.
      for lon in stride(from: -720.0, through: 720, by: 90) {
        let p = Ellipsoid.wgs84.ecef(GeodeticCoordinate(latitudeDegrees: 0, longitudeDegrees: lon, height: 0))
        let onAxis = Int((lon / 90).rounded()) & 1 == 0 ? p.y : p.x
        #expect(onAxis == 0, "longitude \(lon)")
      }
    }
  #endif

  @Test("ECEF to geodetic matches GeographicLib everywhere")
  func ecefToGeodeticMatchesGeographicLibEverywhere() throws {
    var worst = 0.0
    for row in try geoFixture("ecef-reverse.txt") {
      let ours = Ellipsoid.wgs84.geodetic(ecef: SIMD3(row[0], row[1], row[2]))
      let error = groundError(
        latitude: ours.latitudeDegrees, longitude: ours.longitudeDegrees, height: ours.height,
        referenceLatitude: row[3], referenceLongitude: row[4], referenceHeight: row[5])
      worst = max(worst, error)
      // And back: the geodetic result reproduces the ECEF point.
      let back = Ellipsoid.wgs84.ecef(ours)
      worst = max(worst, (back - SIMD3(row[0], row[1], row[2])).length)
    }
    #expect(worst <= Self.nanometres10, "worst geodetic error \(worst) m")
  }

  @Test("the centre of the earth is the polar radius below a pole")
  func theCentreOfTheEarthIsThePolarRadiusBelowAPole() {
    let centre = Ellipsoid.wgs84.geodetic(ecef: .zero)
    #expect(abs(centre.latitudeDegrees) == 90)
    #expect(abs(centre.height + Ellipsoid.wgs84.polarRadius) < 1e-9)
  }

  @Test("ENU matches GeographicLib local cartesian") func enuMatchesGeographicLibLocalCartesian() throws {
    var worstForward = 0.0, worstReverse = 0.0
    var frames: [SIMD3<Double>: LocalTangentFrame] = [:]
    for row in try geoFixture("enu.txt") {
      let key = SIMD3(row[0], row[1], row[2])
      let frame =
        try frames[key]
        ?? LocalTangentFrame(
          origin: GeodeticCoordinate(latitudeDegrees: row[0], longitudeDegrees: row[1], height: row[2]))
      frames[key] = frame
      let p = GeodeticCoordinate(latitudeDegrees: row[3], longitudeDegrees: row[4], height: row[5])
      let expected = SIMD3(row[6], row[7], row[8])
      worstForward = max(worstForward, (frame.enu(p) - expected).length)
      let back = frame.geodetic(enu: expected)
      worstReverse = max(
        worstReverse,
        groundError(
          latitude: back.latitudeDegrees, longitude: back.longitudeDegrees, height: back.height,
          referenceLatitude: p.latitudeDegrees, referenceLongitude: p.longitudeDegrees,
          referenceHeight: p.height))
    }
    #expect(worstForward <= Self.nanometres10, "worst ENU error \(worstForward) m")
    #expect(worstReverse <= Self.nanometres10, "worst ENU → geodetic error \(worstReverse) m")
  }

  @Test("degrees are exact at the axes") func degreesAreExactAtTheAxes() {
    let pole = Ellipsoid.wgs84.ecef(GeodeticCoordinate(latitudeDegrees: 90, longitudeDegrees: 123, height: 0))
    #expect(pole.x == 0 && pole.y == 0 && pole.z == Ellipsoid.wgs84.polarRadius)
    let antimeridian = Ellipsoid.wgs84.ecef(
      GeodeticCoordinate(latitudeDegrees: 0, longitudeDegrees: 180, height: 0))
    #expect(antimeridian == SIMD3(-6_378_137, 0, 0))
    let back = Ellipsoid.wgs84.geodetic(ecef: antimeridian)
    #expect(back.longitudeDegrees == 180 && back.latitudeDegrees == 0 && back.height == 0)
  }

  @Test("seeded round trips stay within nanometres") func seededRoundTripsStayWithinNanometres() throws {
    var rng = SplitMix64(seed: 55)
    var worst = 0.0
    for _ in 0..<20_000 {
      let origin = rng.coordinate(latitude: -90...90, height: -100...3000)
      let frame = try LocalTangentFrame(origin: origin)
      let v = SIMD3(
        Double.random(in: -5000...5000, using: &rng), Double.random(in: -5000...5000, using: &rng),
        Double.random(in: -100...100, using: &rng))
      worst = max(worst, (frame.enu(frame.geodetic(enu: v)) - v).length)
    }
    #expect(worst <= 1e-8, "worst round trip \(worst) m")
  }

  @Test("invalid coordinates are refused by field") func invalidCoordinatesAreRefusedByField() {
    #expect(
      throws: GeoError.invalidCoordinate(
        field: "latitude", value: 91, reason: "must be finite and within ±90°")
    ) {
      try LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 91, longitudeDegrees: 0))
    }
    expectError(GeoError.self, "invalidCoordinate") {
      try LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 0, longitudeDegrees: .nan))
    }
  }
}
