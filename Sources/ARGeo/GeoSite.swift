/// A place on Earth without its models: a local ENU frame, the geo-anchored content placed in
/// it, the session alignment the scene states and its surveyed control points. What recordings
/// are simulated at and validated against, and what a scene file's `geo` section loads as
/// (ARScene's `GeoSite.load(scene:)`): one type for the site everywhere.
public struct GeoSite: Sendable {
  /// The local ENU frame (its origin is the scene's `geo.origin`).
  public var frame: LocalTangentFrame
  /// Each anchor's name and place.
  public var anchors: [(name: String, anchor: GeoAnchor)]
  /// Where a session frame sits in `frame` when nothing measured it (the scene's
  /// `session_alignment`): what a recording without GPS fixes is placed with.
  public var sessionAlignment: SessionAlignment?
  /// Surveyed control points: observations of them in a recording tell where its session truly
  /// was (ARRecording's `ControlTruth`).
  public var controlPoints: [ControlPoint]

  /// A site; anchors need not be near the frame's origin, but within a few kilometres.
  public init(
    frame: LocalTangentFrame, anchors: [(name: String, anchor: GeoAnchor)],
    sessionAlignment: SessionAlignment? = nil, controlPoints: [ControlPoint] = []
  ) {
    self.controlPoints = controlPoints
    self.frame = frame
    self.anchors = anchors
    self.sessionAlignment = sessionAlignment
  }

  /// Each anchor's ENU position, metres.
  public var anchorPositions: [SIMD3<Double>] { anchors.map { frame.enu($0.anchor.coordinate) } }
}
