/// A reference ellipsoid of revolution: the shape geodetic coordinates are measured on.
///
/// All lengths are metres. ``wgs84`` is the one GPS uses; other ellipsoids exist for tests and
/// for users with local datums. Only oblate ellipsoids (0 ≤ f < 1) are supported.
public struct Ellipsoid: Hashable, Sendable {
  /// Equatorial radius `a`, metres.
  public let equatorialRadius: Double
  /// Flattening `f = (a − b) / a`.
  public let flattening: Double
  /// Polar radius `b = a (1 − f)`, metres.
  public let polarRadius: Double
  /// First eccentricity squared, `e² = f (2 − f)`.
  public let eccentricitySquared: Double
  /// Second eccentricity squared, `e′² = e² / (1 − e²)`.
  public let secondEccentricitySquared: Double

  /// An ellipsoid with equatorial radius `a` (metres) and flattening `f`.
  /// - Precondition: `a > 0`, `0 ≤ f < 1`.
  public init(equatorialRadius a: Double, flattening f: Double) {
    precondition(a > 0 && a.isFinite && f >= 0 && f < 1, "Ellipsoid: need a > 0 and 0 ≤ f < 1")
    equatorialRadius = a
    flattening = f
    polarRadius = a * (1 - f)
    eccentricitySquared = f * (2 - f)
    secondEccentricitySquared = eccentricitySquared / ((1 - f) * (1 - f))
  }

  /// WGS84 (NIMA TR8350.2): a = 6 378 137 m, 1/f = 298.257223563.
  public static let wgs84 = Ellipsoid(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

  /// The radius of curvature in the prime vertical, `N(φ) = a / √(1 − e² sin²φ)`, metres.
  @inlinable
  public func primeVerticalRadius(sinLatitude s: Double) -> Double {
    equatorialRadius / (1 - eccentricitySquared * s * s).squareRoot()
  }
}
