import ARGeo
import ARMath

/// Points of interest indexed for the questions a phone asks on every GPS update: which are
/// within a radius, and which are the nearest, by true distance on the WGS84 ellipsoid.
///
/// Places are kept as points on the ellipsoid's surface in Earth-centred coordinates, in a k-d
/// tree. A straight line is never longer than a path along the surface, so the chord between
/// two places bounds their geodesic distance from below: every place within a geodesic radius
/// r lies within the chord radius r. The tree finds those cheaply; their geodesics then decide:
/// within 10 km from the chord itself (ARGeo's `ShortGeodesics`, within 0.1 µm of the exact
/// geodesic), beyond it ARGeo's `Geodesic` (nanometre-exact), nearest chord first and only while
/// a place can still be in the answer. Results are in a fixed order: nearest first, ties in the
/// order the places were given.
public struct PlaceIndex: Sendable {
  /// The places, in the order given.
  public let places: [PointOfInterest]
  private let tree: KDTree
  private let geodesic = Geodesic()

  /// Indexes `places` (building on `threads` threads; the index is the same for any count).
  ///
  /// - Throws: ARGeo's `GeoError` for a place whose coordinate is not finite or whose latitude
  ///   is beyond ±90°.
  public init(_ places: [PointOfInterest], threads: Int = 2) throws(GeoError) {
    var points: [SIMD3<Double>] = []
    points.reserveCapacity(places.count)
    for place in places {
      var surface = try place.coordinate.validated()
      surface.height = 0
      points.append(Ellipsoid.wgs84.ecef(surface))
    }
    self.places = places
    tree = KDTree(points, threads: threads)
  }

  /// A place found: which, how far and in what direction.
  public struct Match: Sendable, Equatable {
    /// Its index in ``PlaceIndex/places``.
    public var index: Int
    /// Geodesic distance from the query, metres (heights ignored).
    public var distance: Double
    /// Initial bearing of the geodesic from the query towards it, degrees clockwise from north,
    /// [0, 360).
    public var bearing: Double

    /// A match of place `index` at `distance` metres and `bearing` degrees.
    public init(index: Int, distance: Double, bearing: Double) {
      self.index = index
      self.distance = distance
      self.bearing = bearing
    }
  }

  /// The places within `radius` metres of `position`, nearest first, at most `limit` of them.
  ///
  /// - Throws: `GeoError` for a position out of range, or a radius that is negative or not a number.
  public func within(_ radius: Double, of position: GeodeticCoordinate, limit: Int = .max) throws(GeoError)
    -> [Match]
  {
    guard radius >= 0, !radius.isNaN else {
      throw .invalidCoordinate(field: "radius", value: radius, reason: "must be a number of metres ≥ 0")
    }
    return try nearest(limit, to: position, within: radius)
  }

  /// ``within(_:of:limit:)`` for many positions at once, on `threads` threads: the answers
  /// in the order of `positions`, the same for any thread count.
  ///
  /// - Throws: `GeoError` for the first position out of range, or a bad radius.
  public func within(
    _ radius: Double, of positions: [GeodeticCoordinate], limit: Int = .max, threads: Int = 2
  )
    throws(GeoError) -> [[Match]]
  {
    var answers = [Result<[Match], GeoError>](repeating: .success([]), count: positions.count)
    // Eight bands a thread, each thread taking the next band not yet taken: queries differ in
    // cost (a city centre holds far more places than a field), and two fixed halves left one
    // thread waiting for the other (1.6× on 2 cores where 4 threads gave 2×).
    let bands = max(1, min(8 * max(1, threads), positions.count))
    answers.withUnsafeMutableBufferPointer { out in
      let results = UnsafeSendableMutablePointer(out.baseAddress!)
      forEachBand(bands, threads: threads) { band in
        for k in positions.count * band / bands..<positions.count * (band + 1) / bands {
          results.pointer[k] = Result { () throws(GeoError) in
            try within(radius, of: positions[k], limit: limit)
          }
        }
      }
    }
    return try answers.map { result throws(GeoError) in try result.get() }
  }

  /// The `count` places nearest to `position` (within `radius` metres, if given), nearest first.
  ///
  /// - Throws: `GeoError` for a position out of range.
  public func nearest(_ count: Int, to position: GeodeticCoordinate, within radius: Double = .infinity)
    throws(GeoError) -> [Match]
  {
    var start = try position.validated()
    start.height = 0
    let origin = try ShortGeodesics(from: start)
    guard count > 0, !places.isEmpty else { return [] }
    let query = origin.originECEF
    // A chord bound that surely holds the answer: all within the radius, or, when fewer are
    // asked for than that holds, the geodesic distance of the count-th nearest by chord (every
    // place nearer than it along the surface is nearer than it in a straight line).
    var bound = radius
    if count < places.count {
      let byChord = tree.nearest(count, to: query, within: radius)
      if byChord.count == count {
        var farthest = 0.0
        for found in byChord { farthest = max(farthest, try measure(found, from: origin, start).distance) }
        bound = min(radius, farthest + 2 * ShortGeodesics.maximumDistanceError)
      }
    }
    var matches: [Match] = []
    var far: [(found: KDTree.Found, chord: Double)] = []
    // Widened by a micrometre: for close places the chord falls short of the geodesic by less
    // than the rounding of their Earth-centred coordinates.
    let reach = bound * (1 + 1e-12) + 1e-6
    tree.forEachPoint(within: reach, of: query, expect: { matches.reserveCapacity($0) }) { found in
      if let line = origin.line(toSurfacePoint: found.point) {
        if line.distance <= radius { matches.append(Match(found.index, line)) }
      } else {
        far.append((found, (found.point - query).length))
      }
    }
    // Beyond the short geodesics' range, the full geodesic, nearest chord first: the chord never
    // exceeds the geodesic, so once it passes the count-th distance found, no later place can
    // be in the answer.
    if !far.isEmpty {
      matches.sort(by: Match.nearerFirst)
      let cut = matches.count >= count ? matches[count - 1].distance : radius
      far.sort { $0.chord < $1.chord }
      for (found, chord) in far {
        if chord > cut * (1 + 1e-12) + 1e-6 { break }
        let match = try measure(found, from: origin, start)
        if match.distance <= radius { matches.append(match) }
      }
    }
    Match.sortNearestFirst(&matches, within: radius)
    return Array(matches.prefix(count))
  }

  /// The geodesic to a place found in the tree: from its chord when short, else the full inverse.
  private func measure(_ found: KDTree.Found, from origin: ShortGeodesics, _ start: GeodeticCoordinate)
    throws(GeoError) -> Match
  {
    if let line = origin.line(toSurfacePoint: found.point) { return Match(found.index, line) }
    let line = try geodesic.inverse(from: start, to: places[found.index].coordinate)
    return Match(found.index, (line.distance, line.initialBearingDegrees))
  }
}

extension PlaceIndex.Match {
  /// A match at `line`'s distance, its bearing turned into [0, 360).
  fileprivate init(_ index: Int, _ line: (distance: Double, initialBearingDegrees: Double)) {
    let bearing =
      line.initialBearingDegrees < 0 ? line.initialBearingDegrees + 360 : line.initialBearingDegrees
    self.init(index: index, distance: line.distance, bearing: bearing < 360 ? bearing : 0)
  }

  /// Nearest first, ties in the order the places were given.
  fileprivate static func nearerFirst(_ a: Self, _ b: Self) -> Bool {
    (a.distance, a.index) < (b.distance, b.index)
  }

  /// Sorts `matches`, all within `radius` metres, ``nearerFirst(_:_:)``: by bucketing their
  /// distances into as many equal bands as there are matches, then sorting each band (by
  /// insertion when it is short, as almost all are). Linear in the count for the few hundred
  /// places a radius query returns, where the comparison sort took a third of the query's time;
  /// places crowded into one band (many at one spot) fall back to the comparison sort's
  /// n log n, never an insertion sort's n².
  fileprivate static func sortNearestFirst(_ matches: inout [Self], within radius: Double) {
    let n = matches.count
    let scale = Double(n) / radius
    guard n > 32, radius.isFinite, radius > 0, scale.isFinite else { return matches.sort(by: nearerFirst) }
    @inline(__always) func band(_ m: Self) -> Int { min(n - 1, Int(m.distance * scale)) }
    var starts = [Int](repeating: 0, count: n + 1)
    for m in matches { starts[band(m) + 1] += 1 }
    for b in 0..<n { starts[b + 1] += starts[b] }
    let banded = [Self](unsafeUninitializedCapacity: n) { out, written in
      for m in matches {
        let b = band(m)
        (out.baseAddress! + starts[b]).initialize(to: m)
        starts[b] += 1
      }
      written = n
    }
    matches = banded
    // starts[b] is now where band b ends.
    matches.withUnsafeMutableBufferPointer { m in
      for b in 0..<n {
        let band = (b == 0 ? 0 : starts[b - 1])..<starts[b]
        guard band.count > 1 else { continue }
        guard band.count <= 16 else {
          m[band].sort(by: nearerFirst)
          continue
        }
        for i in band.dropFirst() {
          let item = m[i]
          var j = i
          while j > band.lowerBound, nearerFirst(item, m[j - 1]) {
            m[j] = m[j - 1]
            j -= 1
          }
          m[j] = item
        }
      }
    }
  }
}
