import ARGeo
import ARMath
import Dispatch

/// Points of interest indexed for the questions a phone asks on every GPS update: which are
/// within a radius, and which are the nearest, by true distance on the WGS84 ellipsoid.
///
/// Places are kept as points on the ellipsoid's surface in Earth-centred coordinates, in a k-d
/// tree. A straight line is never longer than a path along the surface, so the chord between
/// two places bounds their geodesic distance from below: every place within a geodesic radius
/// r lies within the chord radius r. The tree finds those cheaply; the geodesic (ARGeo's,
/// nanometre-exact) then decides, for the few the chord lets through. Results are exact, not
/// approximate, and in a fixed order: nearest first, ties in the order the places were given.
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
    let bands = max(1, min(threads, positions.count))
    answers.withUnsafeMutableBufferPointer { out in
      let results = UnsafeSendableMutablePointer(out.baseAddress!)
      DispatchQueue.concurrentPerform(iterations: bands) { band in
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
    var surface = try position.validated()
    surface.height = 0
    guard count > 0, !places.isEmpty else { return [] }
    let query = Ellipsoid.wgs84.ecef(surface)
    // A chord bound that surely holds the answer: all within the radius, or, when fewer are
    // asked for than that holds, the geodesic distance of the count-th nearest by chord (every
    // place nearer than it along the surface is nearer than it in a straight line).
    var bound = radius
    if count < places.count {
      let byChord = tree.nearest(count, to: query, within: radius)
      if byChord.count == count {
        let farthest = byChord.map { screeningDistance(from: surface, to: $0).upper }.max() ?? radius
        bound = min(radius, farthest)
      }
    }
    // Widened by a micrometre: for close places the chord falls short of the geodesic by less
    // than the rounding of their Earth-centred coordinates.
    let candidates = tree.within(bound * (1 + 1e-12) + 1e-6, of: query)
    // Screened by the local distance (a millimetre from the geodesic within 10 km): only places
    // that can be in the answer get the geodesic, so a query with a limit costs about that many.
    var screened = candidates.map { (index: $0, range: screeningDistance(from: surface, to: $0)) }
    screened.removeAll { $0.range.lower > radius }
    if count < screened.count {
      screened.sort { $0.range.upper < $1.range.upper }
      let cut = screened[count - 1].range.upper
      screened.removeAll { $0.range.lower > cut }
    }
    var matches: [Match] = []
    for (index, _) in screened {
      let line = try geodesic.inverse(from: surface, to: places[index].coordinate)
      guard line.distance <= radius else { continue }
      let bearing =
        line.initialBearingDegrees < 0 ? line.initialBearingDegrees + 360 : line.initialBearingDegrees
      matches.append(Match(index: index, distance: line.distance, bearing: bearing < 360 ? bearing : 0))
    }
    matches.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
    return Array(matches.prefix(count))
  }

  /// Bounds on the geodesic distance to place `index`: the local distance give or take its
  /// documented error within 10 km (and ±80° latitude); elsewhere the geodesic itself.
  private func screeningDistance(from a: GeodeticCoordinate, to index: Int) -> (lower: Double, upper: Double)
  {
    let b = places[index].coordinate
    // The bound is measured between ±80° latitude; nearer the poles, the geodesic.
    if abs(a.latitudeDegrees) < 80, abs(b.latitudeDegrees) < 80, let local = try? LocalDistance.between(a, b),
      local < 10_000
    {
      let error = LocalDistance.maximumError(forDistance: local + 1) + 1e-6
      return (local - error, local + error)
    }
    let exact = geodesicDistance(from: a, to: index)
    return (exact, exact)
  }

  private func geodesicDistance(from a: GeodeticCoordinate, to index: Int) -> Double {
    (try? geodesic.inverse(from: a, to: places[index].coordinate).distance) ?? .infinity
  }
}
