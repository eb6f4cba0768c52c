import ARGeo
import ARMath

extension Scene {
  /// The scene with its geo-anchored objects placed again for a session aligned as
  /// `alignment` says (the alignment a recording's replay has reached at a frame, say), their
  /// named points (``targets``) with them: everything else, including the other anchors, stays
  /// where it was.
  public func placingGeoAnchors(with alignment: SessionAlignment) -> Scene {
    guard let frame = geoFrame else { return self }
    var scene = self
    for i in scene.objects.indices {
      guard let (anchor, anchorFromModel) = scene.objects[i].geoAnchor else { continue }
      let pose = anchor.sessionFromAnchor(in: frame, alignment: alignment)
      let before = Matrix4<Double>(scene.objects[i].worldFromModel)
      scene.objects[i].worldFromModel = SceneResolver.floatMatrix(pose) * anchorFromModel
      guard let modelFromBefore = before.inverse else { continue }
      let moved = Matrix4<Double>(scene.objects[i].worldFromModel) * modelFromBefore
      for t in scene.targets.indices where scene.targets[t].object == i {
        scene.targets[t].center = moved.transformPoint(scene.targets[t].center)
      }
    }
    return scene
  }
}
