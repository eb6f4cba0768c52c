import ARGeo

/// A place recordings are simulated at and validated against: a local ENU frame and the
/// geo-anchored content placed in it.
public struct GeoSite: Sendable {
  /// The local ENU frame (its origin is the scene's `geo.origin`).
  public var frame: LocalTangentFrame
  /// Each anchor's name and place.
  public var anchors: [(name: String, anchor: GeoAnchor)]

  /// A site; anchors need not be near the frame's origin, but within a few kilometres.
  public init(frame: LocalTangentFrame, anchors: [(name: String, anchor: GeoAnchor)]) {
    self.frame = frame
    self.anchors = anchors
  }

  /// Each anchor's ENU position, metres.
  public var anchorPositions: [SIMD3<Double>] { anchors.map { frame.enu($0.anchor.coordinate) } }
}
