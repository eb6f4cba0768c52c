import ARGeo
import ARMath
import ARPlaces
import GeographicLibOracle
import Testing

/// The place index against brute force (every place's geodesic, sorted) on seeded random sets,
/// and its distances and bearings against GeographicLib.
@Suite("Place index")
struct PlaceIndexTests {
  /// `count` places: most in a 20 km city around Prague, some spread worldwide, a few stacked
  /// on the same spot (ties), near the poles and across the antimeridian.
  static func places(_ count: Int, seed: UInt64) -> [PointOfInterest] {
    var random = SplitMix64(seed: seed)
    var out: [PointOfInterest] = []
    for i in 0..<count {
      let coordinate: GeodeticCoordinate
      switch i % 10 {
      case 0:
        coordinate = GeodeticCoordinate(
          latitudeDegrees: Double.random(in: -90...90, using: &random),
          longitudeDegrees: Double.random(in: -180...180, using: &random))
      case 1:
        coordinate = GeodeticCoordinate(latitudeDegrees: 50.0875, longitudeDegrees: 14.4213)  // all at one spot
      case 2:
        coordinate = GeodeticCoordinate(
          latitudeDegrees: Double.random(in: 89...90, using: &random),
          longitudeDegrees: Double.random(in: -180...180, using: &random))
      case 3:
        coordinate = GeodeticCoordinate(
          latitudeDegrees: Double.random(in: -17...(-16), using: &random),
          longitudeDegrees: Double.random(in: 179.5...180, using: &random)
            * (Bool.random(using: &random) ? 1 : -1))
      default:
        coordinate = GeodeticCoordinate(
          latitudeDegrees: 50.0875 + Double.random(in: -0.1...0.1, using: &random),
          longitudeDegrees: 14.4213 + Double.random(in: -0.15...0.15, using: &random),
          height: Double.random(in: 180...400, using: &random))
      }
      out.append(PointOfInterest(id: "p\(i)", name: "place \(i)", coordinate: coordinate))
    }
    return out
  }

  /// Every place's distance and bearing from `position`, nearest first (ties in input order).
  static func bruteForce(_ places: [PointOfInterest], from position: GeodeticCoordinate) throws -> [PlaceIndex
    .Match]
  {
    let geodesic = Geodesic()
    return try places.enumerated().map { i, place in
      let line = try geodesic.inverse(from: position, to: place.coordinate)
      let bearing =
        line.initialBearingDegrees < 0 ? line.initialBearingDegrees + 360 : line.initialBearingDegrees
      return PlaceIndex.Match(index: i, distance: line.distance, bearing: bearing < 360 ? bearing : 0)
    }.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
  }

  @Test(
    "radius and nearest queries give what brute force gives, in the same order", arguments: [1 as UInt64, 2])
  func againstBruteForce(seed: UInt64) throws {
    let places = Self.places(1500, seed: seed)
    let index = try PlaceIndex(places, threads: 2)
    var random = SplitMix64(seed: seed &+ 100)
    for query in 0..<20 {
      let position =
        query % 7 == 3
        ? GeodeticCoordinate(latitudeDegrees: 89.7, longitudeDegrees: Double(query) * 17)
        : query % 4 == 0
          ? Self.places(1, seed: seed &+ UInt64(query))[0].coordinate
          : GeodeticCoordinate(
            latitudeDegrees: 50.0875 + Double.random(in: -0.12...0.12, using: &random),
            longitudeDegrees: 14.4213 + Double.random(in: -0.18...0.18, using: &random))
      let all = try Self.bruteForce(places, from: position)
      for radius in [0.0, 150, 2_000, 25_000, 3_000_000] {
        let expected = all.filter { $0.distance <= radius }
        #expect(try index.within(radius, of: position) == expected, "query \(query), radius \(radius)")
        #expect(try index.within(radius, of: position, limit: 7) == Array(expected.prefix(7)))
      }
      for count in [1, 5, 64] {
        let got = try index.nearest(count, to: position)
        #expect(
          got == Array(all.prefix(count)),
          "query \(query), \(count) nearest: \(got.prefix(3)) against \(all.prefix(3))")
      }
    }
  }

  @Test("the same index on 1 and 2 threads; an empty set; bad input refused")
  func edges() throws {
    let places = Self.places(100_000, seed: 9)
    let (one, two) = (try PlaceIndex(places, threads: 1), try PlaceIndex(places, threads: 2))
    let here = GeodeticCoordinate(latitudeDegrees: 50.08, longitudeDegrees: 14.42)
    #expect(try one.nearest(50, to: here) == two.nearest(50, to: here))
    // Many positions at once, on 1 and 2 threads: each answer as asked alone.
    let positions = Self.places(64, seed: 10).map(\.coordinate)
    let batch = try two.within(5000, of: positions, limit: 8, threads: 2)
    #expect(batch == (try two.within(5000, of: positions, limit: 8, threads: 1)))
    #expect(try batch == positions.map { try two.within(5000, of: $0, limit: 8) })
    #expect(try PlaceIndex([]).within(1000, of: here).isEmpty)
    #expect(throws: GeoError.self) { try PlaceIndex(places).within(-1, of: here) }
    #expect(throws: GeoError.self) {
      try PlaceIndex(places).within(10, of: GeodeticCoordinate(latitudeDegrees: 91, longitudeDegrees: 0))
    }
    #expect(throws: GeoError.self) {
      try PlaceIndex([
        PointOfInterest(id: "x", coordinate: GeodeticCoordinate(latitudeDegrees: .nan, longitudeDegrees: 0))
      ])
    }
  }

  @Test("distances agree with GeographicLib to 1 mm and bearings to 1e-6°")
  func againstGeographicLib() throws {
    let places = Self.places(2000, seed: 4)
    let index = try PlaceIndex(places)
    let position = GeodeticCoordinate(latitudeDegrees: 50.1, longitudeDegrees: 14.4)
    let matches = try index.nearest(300, to: position)
    var pairs: [Double] = []
    for m in matches {
      let c = places[m.index].coordinate
      pairs += [position.latitudeDegrees, position.longitudeDegrees, c.latitudeDegrees, c.longitudeDegrees]
    }
    var results = [Double](repeating: 0, count: matches.count * 3)
    geographiclib_oracle_inverse(pairs, matches.count, &results)
    for (k, m) in matches.enumerated() {
      #expect(abs(m.distance - results[3 * k]) < 1e-3)
      var bearing = results[3 * k + 1] < 0 ? results[3 * k + 1] + 360 : results[3 * k + 1]
      if bearing >= 360 { bearing = 0 }
      if m.distance > 0 {
        #expect(abs(m.bearing - bearing) < 1e-6 || abs(abs(m.bearing - bearing) - 360) < 1e-6)
      }
    }
  }
}
