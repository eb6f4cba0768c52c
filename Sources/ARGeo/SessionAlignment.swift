import ARMath

/// How an AR session's world frame sits in the geographic world: a yaw about gravity and a
/// translation. ARKit sessions started with `.gravity` alignment have +Y up but an arbitrary
/// yaw and origin; this is what compass calibration estimates.
///
/// The "geographic world" is the ARKit gravity-and-heading frame placed at a
/// ``LocalTangentFrame``'s origin (x = east, y = up, z = south; see ``WorldFrame``).
public struct SessionAlignment: Hashable, Sendable, Codable {
  /// The compass heading the session's −Z axis points at (clockwise from north), radians.
  public var yaw: Angle<Double>
  /// The session origin's position in ENU metres (east, north, up) at the frame's origin.
  public var originENU: SIMD3<Double>

  /// An alignment; identity (session axes are already east/up/south, origins coincide) by default.
  public init(yaw: Angle<Double> = .zero, originENU: SIMD3<Double> = .zero) {
    self.yaw = yaw
    self.originENU = originENU
  }

  /// The transform from session world coordinates to geographic world coordinates.
  public var geoWorldFromSession: RigidTransform<Double> {
    RigidTransform(rotation: WorldFrame.rotation(heading: yaw), translation: WorldFrame.world(enu: originENU))
  }

  /// The ENU position (metres) of a point in session world coordinates.
  @inlinable
  public func enu(sessionPoint p: SIMD3<Double>) -> SIMD3<Double> {
    WorldFrame.enu(world: geoWorldFromSession.transformPoint(p))
  }

  /// The session world position of an ENU point (metres).
  @inlinable
  public func sessionPoint(enu v: SIMD3<Double>) -> SIMD3<Double> {
    geoWorldFromSession.inverse.transformPoint(WorldFrame.world(enu: v))
  }

  /// The compass heading of a session world direction.
  public func heading(ofSessionDirection d: SIMD3<Double>) -> Angle<Double>? {
    WorldFrame.heading(ofWorldDirection: geoWorldFromSession.transformDirection(d))
  }

  private enum CodingKeys: String, CodingKey { case yaw, originENU = "origin_enu" }
}
