import ARGeo
import ARMath
import ARTestSupport
import Foundation
import GeographicLibOracle

/// Geodesy against GeographicLib 2.1 (-O2, Debian's build of the library): local ENU
/// conversions (LocalCartesian) and the geodesic inverse problem, single-threaded both sides,
/// on the same seeded points. Points lie within 20 km of an origin at Závist, as an AR guide
/// converts them; both sides agree to nanometres (checked here and in ARGeoTests).
func geoWorkloads(count n: Int) -> [Row] {
  var rng = SplitMix64(seed: 77)
  let origin = GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437)
  let frame = try! LocalTangentFrame(origin: origin)
  let points = (0..<n).map { _ in
    GeodeticCoordinate(
      latitudeDegrees: origin.latitudeDegrees + Double.random(in: -0.2...0.2, using: &rng),
      longitudeDegrees: origin.longitudeDegrees + Double.random(in: -0.3...0.3, using: &rng),
      height: Double.random(in: 200...800, using: &rng))
  }
  let flat = points.flatMap { [$0.latitudeDegrees, $0.longitudeDegrees, $0.height] }
  var ours = [SIMD3<Double>](repeating: .zero, count: n)
  var peer = [Double](repeating: 0, count: 3 * n)
  let label = n >= 1_000_000 && n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)"
  var rows: [Row] = []

  rows.append(
    compare("geodetic to local ENU, \(label) points", peer: "GeographicLib") {
      points.withUnsafeBufferPointer { input in
        ours.withUnsafeMutableBufferPointer { output in
          for i in 0..<n { output[i] = frame.enu(input[i]) }
        }
      }
      blackHole(ours)
    } peerRun: {
      geographiclib_oracle_to_enu(
        origin.latitudeDegrees, origin.longitudeDegrees, origin.height, flat, n, &peer)
      blackHole(peer)
    })
  var worst = 0.0
  for i in 0..<n {
    worst = max(worst, (ours[i] - SIMD3(peer[3 * i], peer[3 * i + 1], peer[3 * i + 2])).length)
  }

  let enuPoints = ours
  let flatENU = enuPoints.flatMap { [$0.x, $0.y, $0.z] }
  var oursBack = [GeodeticCoordinate](repeating: origin, count: n)
  rows.append(
    compare("local ENU to geodetic, \(label) points", peer: "GeographicLib") {
      enuPoints.withUnsafeBufferPointer { input in
        oursBack.withUnsafeMutableBufferPointer { output in
          for i in 0..<n { output[i] = frame.geodetic(enu: input[i]) }
        }
      }
      blackHole(oursBack)
    } peerRun: {
      geographiclib_oracle_from_enu(
        origin.latitudeDegrees, origin.longitudeDegrees, origin.height, flatENU, n, &peer)
      blackHole(peer)
    })
  for i in 0..<n { worst = max(worst, abs(oursBack[i].height - peer[3 * i + 2])) }

  // Geodesic inverse: worldwide pairs (a tenth of the count: each solve is iterative).
  let m = max(1, n / 10)
  let pairs = (0..<m).map { _ in
    (
      GeodeticCoordinate(
        latitudeDegrees: Double.random(in: -90...90, using: &rng),
        longitudeDegrees: Double.random(in: -180...180, using: &rng)),
      GeodeticCoordinate(
        latitudeDegrees: Double.random(in: -90...90, using: &rng),
        longitudeDegrees: Double.random(in: -180...180, using: &rng))
    )
  }
  let flatPairs = pairs.flatMap {
    [$0.0.latitudeDegrees, $0.0.longitudeDegrees, $0.1.latitudeDegrees, $0.1.longitudeDegrees]
  }
  let geodesic = Geodesic()
  var distances = [Double](repeating: 0, count: m)
  var peerResults = [Double](repeating: 0, count: 3 * m)
  let pairLabel = m >= 1000 ? "\(m / 1000)k" : "\(m)"
  rows.append(
    compare("geodesic inverse, \(pairLabel) worldwide pairs", peer: "GeographicLib", rounds: 5) {
      for i in 0..<m {
        distances[i] = (try? geodesic.inverse(from: pairs[i].0, to: pairs[i].1))?.distance ?? .nan
      }
      blackHole(distances)
    } peerRun: {
      geographiclib_oracle_inverse(flatPairs, m, &peerResults)
      blackHole(peerResults)
    })
  var worstDistance = 0.0
  for i in 0..<m { worstDistance = max(worstDistance, abs(distances[i] - peerResults[3 * i])) }
  geoAgreement = (worst, worstDistance)
  return rows
}

/// Largest differences from GeographicLib in the last geo run: ENU/height (m), geodesic distance (m).
nonisolated(unsafe) var geoAgreement = (0.0, 0.0)
