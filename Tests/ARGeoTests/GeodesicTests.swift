import ARGeo
import ARMath
import ARTestSupport
import Testing

/// Geodesics against GeographicLib's GeodSolve: distances to 1 µm, including nearly antipodal
/// points, the poles and the equator.
@Suite struct GeodesicTests {
  let geodesic = Geodesic(.wgs84)

  @Test("inverse matches GeodSolve") func inverseMatchesGeodSolve() throws {
    var worstDistance = 0.0, worstAzimuth = 0.0
    for row in try geoFixture("geodesic-inverse.txt") {
      let a = GeodeticCoordinate(latitudeDegrees: row[0], longitudeDegrees: row[1])
      let b = GeodeticCoordinate(latitudeDegrees: row[2], longitudeDegrees: row[3])
      let line = try geodesic.inverse(from: a, to: b)
      worstDistance = max(worstDistance, abs(line.distance - row[6]))
      // Azimuths are unique except for antipodal points and poles; compare them by the
      // displacement they cause one metre out, which is what matters.
      let ambiguous =
        abs(row[0] + row[2]) < 1e-6 && abs(abs(row[3] - row[1]) - 180) < 1 || abs(row[0]) == 90
        || abs(row[2]) == 90
      if !ambiguous {
        let d1 = abs(Angle<Double>(degrees: line.initialBearingDegrees - row[4]).wrappedToPlusMinusPi.radians)
        let d2 = abs(Angle<Double>(degrees: line.finalBearingDegrees - row[5]).wrappedToPlusMinusPi.radians)
        worstAzimuth = max(worstAzimuth, d1, d2)
      }
    }
    #expect(worstDistance <= 1e-6, "worst distance error \(worstDistance) m")
    #expect(worstAzimuth <= 1e-9, "worst azimuth error \(worstAzimuth) rad")
  }

  @Test("direct matches GeodSolve") func directMatchesGeodSolve() throws {
    var worst = 0.0, worstAzimuth = 0.0
    for row in try geoFixture("geodesic-direct.txt") {
      let start = GeodeticCoordinate(latitudeDegrees: row[0], longitudeDegrees: row[1])
      let end = try geodesic.direct(from: start, initialBearingDegrees: row[2], distance: row[3])
      worst = max(
        worst,
        groundError(
          latitude: end.coordinate.latitudeDegrees, longitude: end.coordinate.longitudeDegrees, height: 0,
          referenceLatitude: row[4], referenceLongitude: row[5], referenceHeight: 0))
      if abs(row[4]) < 89.9999 {
        worstAzimuth = max(
          worstAzimuth,
          abs(Angle<Double>(degrees: end.finalBearingDegrees - row[6]).wrappedToPlusMinusPi.radians))
      }
    }
    #expect(worst <= 1e-6, "worst end-point error \(worst) m")
    #expect(worstAzimuth <= 1e-9, "worst azimuth error \(worstAzimuth) rad")
  }

  @Test("direct inverts inverse") func directInvertsInverse() throws {
    var rng = SplitMix64(seed: 3)
    var worst = 0.0
    for _ in 0..<2000 {
      let a = rng.coordinate(latitude: -89...89)
      let b = rng.coordinate(latitude: -89...89)
      let line = try geodesic.inverse(from: a, to: b)
      let end = try geodesic.direct(
        from: a, initialBearingDegrees: line.initialBearingDegrees, distance: line.distance)
      worst = max(
        worst,
        groundError(
          latitude: end.coordinate.latitudeDegrees, longitude: end.coordinate.longitudeDegrees, height: 0,
          referenceLatitude: b.latitudeDegrees, referenceLongitude: b.longitudeDegrees, referenceHeight: 0))
    }
    #expect(worst <= 1e-6, "worst round trip \(worst) m")
  }

  @Test("short geodesics from the chord match GeodSolve up to 10 km, poles included")
  func shortGeodesicsMatchGeodSolve() throws {
    var worstDistance = 0.0, worstSideways = 0.0, answered = 0
    for row in try geoFixture("geodesic-short.txt") {
      let a = GeodeticCoordinate(latitudeDegrees: row[0], longitudeDegrees: row[1])
      let b = GeodeticCoordinate(latitudeDegrees: row[2], longitudeDegrees: row[3])
      let short = try ShortGeodesics(from: a)
      guard let line = short.line(toSurfacePoint: Ellipsoid.wgs84.ecef(b)) else {
        #expect(row[6] < 1e-9, "no answer at \(row[6]) m")
        continue
      }
      answered += 1
      worstDistance = max(worstDistance, abs(line.distance - row[6]))
      let turn = abs(Angle<Double>(degrees: line.initialBearingDegrees - row[4]).wrappedToPlusMinusPi.radians)
      worstSideways = max(worstSideways, turn * row[6])
    }
    #expect(answered > 2900)
    #expect(worstDistance <= ShortGeodesics.maximumDistanceError, "worst distance error \(worstDistance) m")
    #expect(worstSideways <= 1e-6, "worst sideways displacement \(worstSideways) m")
    // Beyond its range it declines rather than guess.
    let origin = try ShortGeodesics(from: GeodeticCoordinate(latitudeDegrees: 48, longitudeDegrees: 2))
    let far = Ellipsoid.wgs84.ecef(GeodeticCoordinate(latitudeDegrees: 48.1, longitudeDegrees: 2))
    #expect(origin.line(toSurfacePoint: far) == nil)
  }

  @Test("local approximation stays within its documented error")
  func localApproximationStaysWithinItsDocumentedError() throws {
    var rng = SplitMix64(seed: 9)
    for _ in 0..<5000 {
      let a = rng.coordinate(latitude: -80...80)
      let bearing = Double.random(in: -180...180, using: &rng)
      let distance = Double.random(in: 0...LocalDistance.validRange, using: &rng)
      let b = try geodesic.direct(from: a, initialBearingDegrees: bearing, distance: distance).coordinate
      let approximate = try LocalDistance.between(a, b)
      #expect(
        abs(approximate - distance) <= LocalDistance.maximumError(forDistance: distance), "at \(distance) m")
    }
  }
}
