import ARGeo

extension GeoSite {
  /// The site of the scene file at `path` (its models are not loaded): the ENU frame at its
  /// `geo.origin`, its geo-anchored objects by name (an unnamed one as `object N`, in file
  /// order), its `geo.session_alignment` (none written: the identity alignment), and its
  /// `control_points`.
  ///
  /// - Throws: ``SceneError`` naming the file and field: no `geo`, an invalid anchor or control
  ///   point.
  public static func load(scene path: String) throws(SceneError) -> GeoSite {
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
    return GeoSite(
      frame: placement.frame, anchors: anchors, sessionAlignment: placement.alignment,
      controlPoints: try resolver.controlPoints())
  }
}
