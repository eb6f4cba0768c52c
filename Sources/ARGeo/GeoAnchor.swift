import ARMath

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
