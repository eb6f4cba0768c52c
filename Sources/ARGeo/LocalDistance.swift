import RealModule

/// A fast distance between nearby points: the plane through the midpoint latitude with the
/// ellipsoid's meridional and prime-vertical radii of curvature there (the "mid-latitude"
/// equirectangular approximation), for proximity checks that run for every POI on every GPS
/// update. One square root, no iteration.
///
/// Error against the exact geodesic (measured over seeded points between ±80° latitude, see
/// `GeodesicTests`): below ``maximumError(forDistance:)``, which is under 1 mm up to 10 km and
/// under 1 cm up to 20 km. Beyond ``validRange`` use ``Geodesic``.
public enum LocalDistance {
  /// The distances (metres) the documented error bound covers.
  public static let validRange = 20_000.0

  /// The documented worst-case error (metres) at a distance (metres) up to ``validRange``.
  public static func maximumError(forDistance d: Double) -> Double {
    let r = d / 6_371_000
    return d * (3 * r * r) + 1e-8
  }

  /// The approximate distance in metres between `a` and `b` on WGS84 (heights ignored).
  public static func between(_ a: GeodeticCoordinate, _ b: GeodeticCoordinate) throws(GeoError) -> Double {
    let a = try a.validated(), b = try b.validated()
    let e2 = Ellipsoid.wgs84.eccentricitySquared, semiMajor = Ellipsoid.wgs84.equatorialRadius
    let midLatitude = (a.latitudeDegrees + b.latitudeDegrees) / 2
    let (s, c) = sinCos(degrees: midLatitude)
    let w2 = 1 - e2 * s * s
    let w = w2.squareRoot()
    let meridional = semiMajor * (1 - e2) / (w2 * w), primeVertical = semiMajor / w
    let dLat = (b.latitudeDegrees - a.latitudeDegrees) * (.pi / 180)
    let dLon = wrappedDegrees(b.longitudeDegrees - a.longitudeDegrees) * (.pi / 180)
    let north = meridional * dLat, east = primeVertical * c * dLon
    return (north * north + east * east).squareRoot()
  }
}
