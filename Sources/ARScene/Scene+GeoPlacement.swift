import ARGeo
import ARMath

extension Scene {
  /// The scene with its geo-anchored objects placed again for a session aligned as
  /// `alignment` says (the alignment a recording's replay has reached at a frame, say):
  /// everything else, including the other anchors, stays where it was.
  public func placingGeoAnchors(with alignment: SessionAlignment) -> Scene {
    guard let frame = geoFrame else { return self }
    var scene = self
    for i in scene.objects.indices {
      guard let (anchor, anchorFromModel) = scene.objects[i].geoAnchor else { continue }
      let pose = anchor.sessionFromAnchor(in: frame, alignment: alignment)
      scene.objects[i].worldFromModel = SceneResolver.floatMatrix(pose) * anchorFromModel
    }
    return scene
  }
}
