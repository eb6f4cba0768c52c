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

/// Content placed at a geographic position: the GPS equivalent of an ARKit `ARGeoAnchor`.
///
/// The anchor's frame has +Y up (along the ellipsoid normal at the ENU frame's origin, so the
/// tilt of distant anchors from the Earth's curvature is ignored, as in ARKit) and its −Z axis at
/// the compass `heading`: heading 0 means x = east, y = up, z = south.
public struct GeoAnchor: Hashable, Sendable {
  /// Where the anchor is.
  public var coordinate: GeodeticCoordinate
  /// The compass heading of the anchor's −Z axis, clockwise from north.
  public var heading: Angle<Double>

  /// An anchor at `coordinate` facing `heading`.
  public init(coordinate: GeodeticCoordinate, heading: Angle<Double> = .zero) {
    self.coordinate = coordinate
    self.heading = heading
  }

  /// The anchor's pose in the geographic world at `frame`'s origin (`geoWorld_from_anchor`).
  public func geoWorldFromAnchor(in frame: LocalTangentFrame) -> RigidTransform<Double> {
    RigidTransform(
      rotation: WorldFrame.rotation(heading: heading),
      translation: WorldFrame.world(enu: frame.enu(coordinate)))
  }

  /// The anchor's pose in an AR session's world frame (`sessionWorld_from_anchor`), metres.
  public func sessionFromAnchor(in frame: LocalTangentFrame, alignment: SessionAlignment) -> RigidTransform<
    Double
  > {
    alignment.geoWorldFromSession.inverse * geoWorldFromAnchor(in: frame)
  }
}
