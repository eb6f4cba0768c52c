import RealModule

/// Geodesics of up to 10 km from one point on the ellipsoid's surface, computed from the chord
/// in a few dozen floating-point operations: for the queries that measure many nearby places
/// from one position (every GPS update of a proximity alert), where ``Geodesic/inverse(from:to:)``
/// would cost a microsecond or more each.
///
/// A geodesic's curvature as a space curve is the surface's normal curvature in its direction,
/// κ = cos²α / M + sin²α / N (Euler), so its length follows from its chord c as a circular arc's
/// does: s = c (1 + (κc)²/24 + 3(κc)⁴/640). Its initial azimuth is the normal section's (the
/// chord seen in the local horizontal) less (e²/12)(c/N)² cos²φ sin 2α, the angle between normal
/// section and geodesic. Measured against GeographicLib's GeodSolve over 3,000 seeded pairs of
/// every latitude, the poles included (`GeodesicTests`): distances within 0.1 µm, and azimuths
/// within 1 µm of sideways displacement at the far end (round-off of the chord's coordinates
/// dominates for pairs a few millimetres apart).
public struct ShortGeodesics: Sendable {
  /// The longest chord, metres, for which ``line(toSurfacePoint:)`` gives an answer.
  public static let validRange = 10_000.0

  /// The documented bound on the distance error, metres (the largest seen is 0.013 µm).
  public static let maximumDistanceError = 1e-7

  /// The start: Earth-centred coordinates of the origin on the ellipsoid's surface, metres.
  public let originECEF: SIMD3<Double>
  private let east: SIMD3<Double>, north: SIMD3<Double>
  private let inverseMeridionalRadius: Double, inversePrimeVerticalRadius: Double
  /// (e²/12) cos²φ / N²: the normal-section-to-geodesic azimuth term, per square metre of chord.
  private let azimuthTerm: Double

  /// Geodesics from `origin` (its height ignored: the start is on the surface below it).
  ///
  /// - Throws: `GeoError` for a coordinate that is not finite or a latitude beyond ±90°.
  public init(from origin: GeodeticCoordinate, on ellipsoid: Ellipsoid = .wgs84) throws(GeoError) {
    var surface = try origin.validated()
    surface.height = 0
    originECEF = ellipsoid.ecef(surface)
    let (sines, cosines) = sinCos(degrees: SIMD2(surface.latitudeDegrees, surface.longitudeDegrees))
    let (sinLat, sinLon, cosLat, cosLon) = (sines.x, sines.y, cosines.x, cosines.y)
    east = SIMD3(-sinLon, cosLon, 0)
    north = SIMD3(-sinLat * cosLon, -sinLat * sinLon, cosLat)
    let e2 = ellipsoid.eccentricitySquared
    let w2 = 1 - e2 * sinLat * sinLat
    let primeVertical = ellipsoid.equatorialRadius / w2.squareRoot()
    inversePrimeVerticalRadius = 1 / primeVertical
    inverseMeridionalRadius = w2 / (primeVertical * (1 - e2))
    azimuthTerm = e2 / 12 * cosLat * cosLat / (primeVertical * primeVertical)
  }

  /// The geodesic from the origin to `point`, Earth-centred coordinates (metres) of a point on
  /// the ellipsoid's surface: its length in metres and its initial bearing in degrees clockwise
  /// from north, in (−180, 180]; `nil` when the chord is longer than ``validRange`` or the
  /// point is the origin itself (use ``Geodesic`` for those).
  public func line(toSurfacePoint point: SIMD3<Double>) -> (distance: Double, initialBearingDegrees: Double)?
  {
    let chord = point - originECEF
    let c2 = (chord * chord).sum()
    guard c2 <= Self.validRange * Self.validRange else { return nil }
    let (e, n) = ((chord * east).sum(), (chord * north).sum())
    let horizontal2 = e * e + n * n
    guard horizontal2 > 0 else { return nil }
    let curvature = (n * n * inverseMeridionalRadius + e * e * inversePrimeVerticalRadius) / horizontal2
    let x2 = curvature * curvature * c2
    let distance = c2.squareRoot() * (1 + x2 * (1.0 / 24 + x2 * (3.0 / 640)))
    // sin 2α of the normal section, from its components, without an angle.
    let sin2Alpha = 2 * e * n / horizontal2
    let azimuth = Double.atan2(y: e, x: n) - azimuthTerm * c2 * sin2Alpha
    var degrees = azimuth * (180 / .pi)
    if degrees <= -180 { degrees += 360 } else if degrees > 180 { degrees -= 360 }
    return (distance, degrees)
  }
}
