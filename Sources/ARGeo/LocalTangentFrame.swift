/// A local east-north-up (ENU) frame tangent to the ellipsoid at an origin: metres, x = east,
/// y = north, z = up along the ellipsoid normal at the origin.
///
/// The origin's ECEF position and the rotation are computed once, so each conversion costs one
/// geodetic → ECEF step (forward) or one ECEF → geodetic step (reverse) plus a rotation. Exact to
/// round-off at any distance from the origin; the same definition as GeographicLib's
/// `LocalCartesian`.
public struct LocalTangentFrame: Hashable, Sendable {
  /// The origin of the frame.
  public let origin: GeodeticCoordinate
  /// The ellipsoid the coordinates refer to.
  public let ellipsoid: Ellipsoid
  /// The origin in ECEF, metres.
  public let originECEF: SIMD3<Double>
  // Rows of the ECEF → ENU rotation: the east, north and up unit vectors in ECEF.
  @usableFromInline let east: SIMD3<Double>
  @usableFromInline let north: SIMD3<Double>
  @usableFromInline let up: SIMD3<Double>

  /// A frame at `origin` on `ellipsoid`.
  public init(origin: GeodeticCoordinate, ellipsoid: Ellipsoid = .wgs84) throws(GeoError) {
    let origin = try origin.validated()
    self.origin = origin
    self.ellipsoid = ellipsoid
    originECEF = ellipsoid.ecef(origin)
    let (sinLat, cosLat) = sinCos(degrees: origin.latitudeDegrees)
    let (sinLon, cosLon) = sinCos(degrees: origin.longitudeDegrees)
    east = SIMD3(-sinLon, cosLon, 0)
    north = SIMD3(-sinLat * cosLon, -sinLat * sinLon, cosLat)
    up = SIMD3(cosLat * cosLon, cosLat * sinLon, sinLat)
  }

  /// ENU coordinates (metres) of an ECEF point.
  @inlinable
  public func enu(ecef p: SIMD3<Double>) -> SIMD3<Double> {
    let d = p - originECEF
    return SIMD3((east * d).sum(), (north * d).sum(), (up * d).sum())
  }

  /// The ECEF point (metres) of ENU coordinates.
  @inlinable
  public func ecef(enu v: SIMD3<Double>) -> SIMD3<Double> {
    originECEF + east * v.x + north * v.y + up * v.z
  }

  /// ENU coordinates (metres) of a geodetic position.
  @inlinable
  public func enu(_ p: GeodeticCoordinate) -> SIMD3<Double> { enu(ecef: ellipsoid.ecef(p)) }

  /// The geodetic position of ENU coordinates (metres).
  @inlinable
  public func geodetic(enu v: SIMD3<Double>) -> GeodeticCoordinate { ellipsoid.geodetic(ecef: ecef(enu: v)) }

  /// ENU coordinates of many positions, in order.
  public func enu(_ points: some Collection<GeodeticCoordinate>) -> [SIMD3<Double>] {
    points.map { enu($0) }
  }

  /// Geodetic positions of many ENU points, in order.
  public func geodetic(enu points: some Collection<SIMD3<Double>>) -> [GeodeticCoordinate] {
    points.map { geodetic(enu: $0) }
  }

  /// A direction given in ENU (east, north, up) expressed in ECEF; no translation.
  @inlinable
  public func ecefDirection(enu v: SIMD3<Double>) -> SIMD3<Double> { east * v.x + north * v.y + up * v.z }
}
