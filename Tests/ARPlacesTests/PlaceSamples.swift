import ARGeo
import ARMath
import ARPlaces

/// Seeded place sets for the place index's tests (here and, through a link, in the Oracles
/// package's GeographicLib comparison).
enum PlaceSamples {
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
        // All at one spot.
        coordinate = GeodeticCoordinate(latitudeDegrees: 50.0875, longitudeDegrees: 14.4213)
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
}
