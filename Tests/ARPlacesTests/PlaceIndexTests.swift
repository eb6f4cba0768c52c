import ARGeo
import ARMath
import ARPlaces
import ARTestSupport
import Testing

/// The place index against brute force (every place's geodesic, sorted) on seeded random sets;
/// its distances and bearings against GeographicLib are in the Oracles package (OracleTests).
@Suite("Place index")
struct PlaceIndexTests {
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

  /// Whether `got` holds the places `expected` holds, in its order, with distances within the
  /// short geodesics' documented error and bearings within 1e-6° (the index measures places
  /// within 10 km from their chord, brute force with the full geodesic).
  static func same(_ got: [PlaceIndex.Match], _ expected: [PlaceIndex.Match]) -> Bool {
    got.count == expected.count
      && zip(got, expected).allSatisfy { g, e in
        let turn = abs(g.bearing - e.bearing)
        return g.index == e.index && abs(g.distance - e.distance) <= ShortGeodesics.maximumDistanceError
          && (min(turn, 360 - turn) <= 1e-6 || e.distance < 1e-3)
      }
  }

  @Test(
    "radius and nearest queries give what brute force gives, in the same order", arguments: [1 as UInt64, 2])
  func againstBruteForce(seed: UInt64) throws {
    let places = PlaceSamples.places(1500, seed: seed)
    let index = try PlaceIndex(places, threads: 2)
    var random = SplitMix64(seed: seed &+ 100)
    for query in 0..<20 {
      let position =
        query % 7 == 3
        ? GeodeticCoordinate(latitudeDegrees: 89.7, longitudeDegrees: Double(query) * 17)
        : query % 4 == 0
          ? PlaceSamples.places(1, seed: seed &+ UInt64(query))[0].coordinate
          : GeodeticCoordinate(
            latitudeDegrees: 50.0875 + Double.random(in: -0.12...0.12, using: &random),
            longitudeDegrees: 14.4213 + Double.random(in: -0.18...0.18, using: &random))
      let all = try Self.bruteForce(places, from: position)
      for radius in [0.0, 150, 2_000, 25_000, 3_000_000] {
        let expected = all.filter { $0.distance <= radius }
        #expect(
          try Self.same(index.within(radius, of: position), expected), "query \(query), radius \(radius)")
        #expect(try Self.same(index.within(radius, of: position, limit: 7), Array(expected.prefix(7))))
      }
      for count in [1, 5, 64] {
        let got = try index.nearest(count, to: position)
        #expect(
          Self.same(got, Array(all.prefix(count))),
          "query \(query), \(count) nearest: \(got.prefix(3)) against \(all.prefix(3))")
      }
    }
  }

  @Test("places at the same spot come in the order given, in every query")
  func tiesKeepTheOrderGiven() throws {
    // 300 places on 40 spots: every distance is shared by several places, in a seeded order.
    var random = SplitMix64(seed: 12)
    let spots = (0..<40).map { _ in
      GeodeticCoordinate(
        latitudeDegrees: 47.5 + Double.random(in: -0.004...0.004, using: &random),
        longitudeDegrees: 19.05 + Double.random(in: -0.006...0.006, using: &random))
    }
    let places = (0..<300).map { i in
      PointOfInterest(id: "p\(i)", coordinate: spots[Int.random(in: 0..<spots.count, using: &random)])
    }
    let index = try PlaceIndex(places)
    let here = GeodeticCoordinate(latitudeDegrees: 47.5, longitudeDegrees: 19.05)
    let all = try Self.bruteForce(places, from: here)
    #expect(try Self.same(index.within(2_000, of: here), all))
    #expect(try Self.same(index.within(300, of: here), all.filter { $0.distance <= 300 }))
    #expect(try Self.same(index.nearest(45, to: here), Array(all.prefix(45))))
    // A thousand at one spot share one distance: in the order given, also for a radius so small
    // that a band's width underflows.
    let crowd = (0..<1000).map { PointOfInterest(id: "c\($0)", coordinate: spots[0]) }
    let crowded = try PlaceIndex(crowd)
    #expect(try crowded.within(500, of: here).map(\.index) == Array(0..<1000))
    #expect(try crowded.within(1e-310, of: spots[0]).map(\.index) == Array(0..<1000))
  }

  @Test("the same index on 1, 2 and 5 threads; an empty set; bad input refused")
  func edges() throws {
    // Enough places that halves of more than 100k are built apart, two levels deep on 5 threads.
    let places = PlaceSamples.places(450_000, seed: 9)
    let (one, two) = (try PlaceIndex(places, threads: 1), try PlaceIndex(places, threads: 2))
    let five = try PlaceIndex(places, threads: 5)
    let here = GeodeticCoordinate(latitudeDegrees: 50.08, longitudeDegrees: 14.42)
    #expect(try one.nearest(50, to: here) == two.nearest(50, to: here))
    #expect(try one.within(3000, of: here) == five.within(3000, of: here))
    // Many positions at once, on 1, 2 and 3 threads: each answer as asked alone.
    let positions = PlaceSamples.places(64, seed: 10).map(\.coordinate)
    let batch = try two.within(5000, of: positions, limit: 8, threads: 2)
    #expect(batch == (try two.within(5000, of: positions, limit: 8, threads: 1)))
    #expect(batch == (try two.within(5000, of: positions, limit: 8, threads: 3)))
    #expect(try batch == positions.map { try two.within(5000, of: $0, limit: 8) })
    #expect(try PlaceIndex([]).within(1000, of: here).isEmpty)
    expectError(GeoError.self, "invalidCoordinate") { try PlaceIndex(places).within(-1, of: here) }
    expectError(GeoError.self, "invalidCoordinate") {
      try PlaceIndex(places).within(10, of: GeodeticCoordinate(latitudeDegrees: 91, longitudeDegrees: 0))
    }
    expectError(GeoError.self, "invalidCoordinate") {
      try PlaceIndex([
        PointOfInterest(id: "x", coordinate: GeodeticCoordinate(latitudeDegrees: .nan, longitudeDegrees: 0))
      ])
    }
  }
}
