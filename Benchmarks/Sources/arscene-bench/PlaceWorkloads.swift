import ARGeo
import ARMath
import ARPlaces
import Foundation

/// A million points of interest across Europe, dense in a few cities: the index built, radius
/// and 10-nearest queries by exact geodesic distance, against a brute-force scan (every place's
/// distance: the local formula, which is what an app without an index does) and SciPy's
/// cKDTree on ECEF coordinates (chord distances only; PyPI scipy in .build/peers/python).
func placeWorkloads(quick: Bool) -> [Row] {
  let count = quick ? 50_000 : 1_000_000
  var random = SplitMix64(seed: 33)
  let cities = [
    (50.0875, 14.4213), (48.8566, 2.3522), (52.52, 13.405), (41.9028, 12.4964), (59.3293, 18.0686),
  ]
  let places = europeanPlaces(count: count, cities: cities, random: &random)
  let queries = (0..<1000).map { k -> GeodeticCoordinate in
    let city = cities[k % cities.count]
    return GeodeticCoordinate(
      latitudeDegrees: city.0 + Double.random(in: -0.1...0.1, using: &random),
      longitudeDegrees: city.1 + Double.random(in: -0.15...0.15, using: &random))
  }
  let radius = 1000.0
  var rows: [Row] = []
  var index = try! PlaceIndex([])
  let build = oursOnly("place index build, \(count / 1000)k places", rounds: quick ? 1 : 3) {
    index = try! PlaceIndex(places, threads: 2)
  }
  var found = 0
  let radiusTime = oursOnly(
    "1,000 radius queries (1 km, exact geodesic), \(count / 1000)k places", rounds: quick ? 1 : 5
  ) {
    found = 0
    for q in queries { found += try! index.within(radius, of: q).count }
  }
  let limited = oursOnly(
    "1,000 radius queries (1 km, at most 20 each, exact geodesic), \(count / 1000)k places",
    rounds: quick ? 1 : 15
  ) {
    for q in queries { blackHole(try! index.within(radius, of: q, limit: 20)) }
  }
  // 15 rounds on both sides of the 2-core row: with 5, one slow round of the shared machine
  // read 0.70 where other runs read 0.49-0.53.
  let batch = oursOnly(
    "1,000 radius queries (1 km, at most 20 each), on 2 cores, \(count / 1000)k places",
    rounds: quick ? 1 : 15
  ) {
    blackHole(try! index.within(radius, of: queries, limit: 20, threads: 2))
  }
  let nearestTime = oursOnly(
    "1,000 10-nearest queries (exact geodesic), \(count / 1000)k places", rounds: quick ? 1 : 5
  ) {
    for q in queries { blackHole(try! index.nearest(10, to: q)) }
  }
  // Brute force: 20 of the queries (a scan is slow), scaled to 1,000.
  let scan = oursOnly("brute force", rounds: 1) {
    var n = 0
    for q in queries.prefix(20) {
      for p in places where (try! LocalDistance.between(q, p.coordinate)) <= radius { n += 1 }
    }
    blackHole(n)
  }
  rows.append(
    Row(
      workload:
        "1,000 radius queries (1 km) on \(count / 1000)k places: \(found) found; index vs scanning every place",
      ours_s: radiusTime.ours_s, peer: "brute-force scan (local distance)", peer_s: scan.ours_s * 50,
      ratio: radiusTime.ours_s / (scan.ours_s * 50)))
  let peer = scipyPlaceTimes(places: places.map(\.coordinate), queries: queries, radius: radius, quick: quick)
  let scipy = "SciPy cKDTree (ECEF, chord only)"
  // What a user who wants the places nearest first with their distances runs.
  let honest = "cKDTree + pyproj exact geodesic + sort"
  /// Our row against the peer's time on output line `line` (NaN when the peer did not run).
  func race(_ ours: Row, _ suffix: String = "", against name: String, line: Int) -> Row {
    let theirs = peer?[line] ?? .nan
    return Row(
      workload: ours.workload + suffix, ours_s: ours.ours_s, peer: name, peer_s: theirs,
      ratio: ours.ours_s / theirs)
  }
  rows += [
    race(build, against: scipy, line: 0),
    race(radiusTime, against: honest, line: 2),
    race(radiusTime, " (floor)", against: scipy, line: 1),
    race(limited, against: honest + ", first 20", line: 3),
    race(limited, " (floor)", against: scipy + ", all within 1 km", line: 1),
    Row(
      workload: batch.workload, ours_s: batch.ours_s, peer: "ours on 1 core, the same queries",
      peer_s: limited.ours_s, ratio: batch.ours_s / limited.ours_s),
    race(nearestTime, against: honest, line: 5),
    race(nearestTime, " (floor)", against: scipy, line: 4),
  ]
  return rows
}

/// `count` places, half spread over Europe and half within a few kilometres of `cities`.
private func europeanPlaces(count: Int, cities: [(Double, Double)], random: inout SplitMix64)
  -> [PointOfInterest]
{
  var places: [PointOfInterest] = []
  places.reserveCapacity(count)
  for i in 0..<count {
    let coordinate: GeodeticCoordinate
    if i % 2 == 0 {
      coordinate = GeodeticCoordinate(
        latitudeDegrees: Double.random(in: 36...70, using: &random),
        longitudeDegrees: Double.random(in: -10...30, using: &random))
    } else {
      let city = cities[i % cities.count]
      coordinate = GeodeticCoordinate(
        latitudeDegrees: city.0 + Double.random(in: -0.15...0.15, using: &random),
        longitudeDegrees: city.1 + Double.random(in: -0.2...0.2, using: &random))
    }
    places.append(PointOfInterest(id: String(i), coordinate: coordinate))
  }
  return places
}

/// SciPy's times (`Tools/peers/scipy_ckdtree.py`, one per output line) for the same places and
/// queries, given as ECEF coordinates on the surface and as latitude-longitude pairs; nil when
/// the peer did not run.
private func scipyPlaceTimes(
  places: [GeodeticCoordinate], queries: [GeodeticCoordinate], radius: Double, quick: Bool
) -> [Double]? {
  let folder = NSTemporaryDirectory() + "arscene-bench-places-\(getpid())"
  try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  func write(_ points: [GeodeticCoordinate], _ name: String) {
    var values: [Double] = []
    values.reserveCapacity(points.count * 3)
    for p in points {
      let e = Ellipsoid.wgs84.ecef(
        GeodeticCoordinate(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees))
      values += [e.x, e.y, e.z]
    }
    FileManager.default.createFile(atPath: folder + "/" + name, contents: values.withUnsafeBytes { Data($0) })
  }
  /// Latitude, longitude pairs in degrees, for the peer's geodesic distances.
  func writeDegrees(_ points: [GeodeticCoordinate], _ name: String) {
    let values = points.flatMap { [$0.latitudeDegrees, $0.longitudeDegrees] }
    FileManager.default.createFile(atPath: folder + "/" + name, contents: values.withUnsafeBytes { Data($0) })
  }
  write(places, "places.bin")
  write(queries, "queries.bin")
  writeDegrees(places, "places-latlon.bin")
  writeDegrees(queries, "queries-latlon.bin")
  return runPeer(
    [
      "/usr/bin/python3", "Tools/peers/scipy_ckdtree.py", folder + "/places.bin", folder + "/queries.bin",
      folder + "/places-latlon.bin", folder + "/queries-latlon.bin", "\(radius)", quick ? "1" : "3",
    ],
    pythonPath: true)
}
