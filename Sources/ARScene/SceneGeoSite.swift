import ARGeo

/// A scene's place on Earth without its models: its ENU frame, its session alignment and its
/// geo-anchored objects, what recordings are simulated and validated against.
public struct SceneGeoSite: Sendable {
  /// The local ENU frame at the scene's `geo.origin`.
  public var frame: LocalTangentFrame
  /// How the scene's session frame sits in that ENU frame.
  public var alignment: SessionAlignment
  /// Each geo-anchored object's name and anchor, in file order.
  public var anchors: [(name: String, anchor: GeoAnchor)]
  /// The scene's surveyed control points, in file order.
  public var controlPoints: [ControlPoint] = []

  /// The site of the scene file at `path` (its models are not loaded).
  ///
  /// - Throws: ``SceneError`` naming the file and field: no `geo`, an invalid anchor or control
  ///   point.
  public static func load(path: String) throws(SceneError) -> SceneGeoSite {
    let file = try SceneFile.read(path: path)
    let resolver = SceneResolver(path: path, file: file, projection: nil)
    guard let placement = try resolver.geoPlacement() else {
      throw resolver.fail("geo", "missing: the scene has no place on Earth")
    }
    var anchors: [(name: String, anchor: GeoAnchor)] = []
    for (i, object) in file.objects.enumerated() {
      guard let geo = object.anchor?.geo else { continue }
      anchors.append((object.name ?? "object \(i)", try resolver.geoAnchor(geo, "objects[\(i)].anchor.geo")))
    }
    return SceneGeoSite(
      frame: placement.frame, alignment: placement.alignment, anchors: anchors,
      controlPoints: try resolver.controlPoints())
  }
}
