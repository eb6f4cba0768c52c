/// One GPS fix paired with where the AR session says the device was at that moment.
public struct PositionFix: Hashable, Sendable {
  /// The device position in the session's world frame (ARKit, +Y up), metres.
  public var sessionPosition: SIMD3<Double>
  /// The GPS position in the local ENU frame (metres; see ``LocalTangentFrame``).
  public var enu: SIMD3<Double>
  /// The fix's horizontal 1-σ error per axis, metres (must be > 0).
  public var horizontalAccuracy: Double
  /// The fix's vertical 1-σ error, metres; nil means 1.5 × the horizontal accuracy (typical of
  /// consumer GNSS).
  public var verticalAccuracy: Double?

  /// A fix.
  public init(
    sessionPosition: SIMD3<Double>, enu: SIMD3<Double>, horizontalAccuracy: Double,
    verticalAccuracy: Double? = nil
  ) {
    self.sessionPosition = sessionPosition
    self.enu = enu
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
  }

  /// The session position's horizontal coordinates as if the session axes were east/north:
  /// (x, −z). A session yaw ψ turns these clockwise by ψ into true east/north.
  @inlinable var sessionEastNorth: SIMD2<Double> { SIMD2(sessionPosition.x, -sessionPosition.z) }
  @inlinable var enuEastNorth: SIMD2<Double> { SIMD2(enu.x, enu.y) }
  @inlinable var effectiveVerticalAccuracy: Double { verticalAccuracy ?? 1.5 * horizontalAccuracy }

  func validated(index: Int) throws(GeoError) -> PositionFix {
    guard sessionPosition.x.isFinite, sessionPosition.y.isFinite, sessionPosition.z.isFinite,
      enu.x.isFinite, enu.y.isFinite, enu.z.isFinite
    else {
      throw .invalidCoordinate(field: "fixes[\(index)].position", value: .nan, reason: "must be finite")
    }
    guard horizontalAccuracy > 0, horizontalAccuracy.isFinite else {
      throw .invalidCoordinate(
        field: "fixes[\(index)].horizontal_accuracy", value: horizontalAccuracy, reason: "must be > 0")
    }
    if let v = verticalAccuracy, !(v > 0 && v.isFinite) {
      throw .invalidCoordinate(field: "fixes[\(index)].vertical_accuracy", value: v, reason: "must be > 0")
    }
    return self
  }
}

/// Clockwise rotation of an (east, north) vector by a heading angle given as (sin, cos).
@inlinable
func rotateClockwise(_ v: SIMD2<Double>, sin s: Double, cos c: Double) -> SIMD2<Double> {
  SIMD2(v.x * c + v.y * s, -v.x * s + v.y * c)
}
