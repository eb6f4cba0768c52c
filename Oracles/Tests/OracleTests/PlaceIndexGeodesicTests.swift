import ARGeo
import ARMath
import ARPlaces
import GeographicLibOracle
import Testing

/// The place index's distances and bearings against GeographicLib's geodesic inverse, on the
/// seeded places of the ARPlaces tests.
@Suite("Place index against GeographicLib")
struct PlaceIndexGeodesicTests {
  @Test("distances agree with GeographicLib to 0.1 µm and bearings to 1e-6°")
  func againstGeographicLib() throws {
    let places = PlaceSamples.places(2000, seed: 4)
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
      #expect(abs(m.distance - results[3 * k]) <= ShortGeodesics.maximumDistanceError)
      var bearing = results[3 * k + 1] < 0 ? results[3 * k + 1] + 360 : results[3 * k + 1]
      if bearing >= 360 { bearing = 0 }
      if m.distance > 0 {
        #expect(abs(m.bearing - bearing) < 1e-6 || abs(abs(m.bearing - bearing) - 360) < 1e-6)
      }
    }
  }
}
