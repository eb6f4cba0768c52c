import ARMath
import ARMesh
import ARRender
import ARScene
import ARSceneRendering

/// A scene's draw calls made once, textures decoded once, for every frame of a replay: each
/// frame only moves the geo-anchored objects' calls and swaps in the selected point's marker.
struct OverlayDrawCalls {
  private let scene: Scene
  private let base: [DrawCall]
  /// Each object's calls among ``base``: its model, then its point markers.
  private let ranges: [Range<Int>]
  /// Each target's marker among ``base``: its object's, after the model.
  private let markerIndex: [Int]
  private let highlightColor: SIMD3<Float>
  /// Highlighted markers by target, made when first selected.
  private var highlighted: [Int: DrawCall] = [:]
  /// Whether any object is geo-anchored (and so moves with the alignment).
  let hasGeoContent: Bool
  /// ``base`` as a ``TruthGhost`` draws it, call for call; nil without a ghost.
  private let ghostBase: [DrawCall]?

  init(scene: Scene, highlightColor: SIMD3<Float>, ghost: TruthGhost? = nil) throws(SceneError) {
    self.scene = scene
    self.highlightColor = highlightColor
    base = try scene.drawCalls()
    if let ghost {
      do {
        ghostBase = try base.map { call in
          try DrawCall(
            mesh: ghost.ghostMesh(call.mesh), worldFromModel: call.worldFromModel, cullBackFaces: false)
        }
      } catch { throw .render(path: "scene", reason: "the truth's ghost: \(error)") }
    } else {
      ghostBase = nil
    }
    var ranges: [Range<Int>] = []
    for object in scene.objects {
      let start = ranges.last?.upperBound ?? 0
      ranges.append(start..<start + 1 + object.pointMarkers.count)
    }
    self.ranges = ranges
    markerIndex = scene.targets.indices.map { t in
      ranges[scene.targets[t].object].lowerBound + 1
        + scene.targets[..<t].filter { $0.object == scene.targets[t].object }.count
    }
    hasGeoContent = scene.objects.contains { $0.geoAnchor != nil }
  }

  /// The draw calls with geo-anchored objects placed as in `placed`, or left out without it,
  /// and target `selected`'s marker highlighted; with `ghostCorrection` (world to world: where
  /// the truth puts what the app drew), the truth's ghost of each call after them.
  mutating func draws(
    placing placed: Scene?, selected: Int?, ghostCorrection: RigidTransform<Double>? = nil
  ) throws -> [DrawCall] {
    var all = base
    if let selected { all[markerIndex[selected]] = try highlightedMarker(selected) }
    var out: [(index: Int, call: DrawCall)] = []
    for (i, object) in scene.objects.enumerated() {
      guard hasGeoContent, object.geoAnchor != nil else {
        out += ranges[i].map { ($0, all[$0]) }
        continue
      }
      guard let placed else { continue }
      for k in ranges[i] {
        var draw = all[k]
        draw.worldFromModel = placed.objects[i].worldFromModel
        out.append((k, draw))
      }
    }
    guard let ghostBase, let ghostCorrection else { return out.map(\.call) }
    let correction = Matrix4<Float>(ghostCorrection.matrix)
    let ghosts = out.map { entry in
      var ghost = ghostBase[entry.index]
      ghost.worldFromModel = correction * entry.call.worldFromModel
      return ghost
    }
    return out.map(\.call) + ghosts
  }

  /// Target `target`'s marker as drawn when selected.
  private mutating func highlightedMarker(_ target: Int) throws -> DrawCall {
    if let made = highlighted[target] { return made }
    let marker = base[markerIndex[target]]
    let made = try DrawCall(
      mesh: Self.highlighted(marker.mesh, color: highlightColor), worldFromModel: marker.worldFromModel,
      cullBackFaces: marker.cullBackFaces)
    highlighted[target] = made
    return made
  }

  /// A marker sphere as drawn when its point is selected: a third larger, in `color`, glowing.
  static func highlighted(_ marker: Mesh, color: SIMD3<Float>) -> Mesh {
    var mesh = marker
    let centre = mesh.positions.reduce(SIMD3<Float>.zero, +) / Float(max(1, mesh.positions.count))
    mesh.positions = mesh.positions.map { centre + ($0 - centre) * 1.35 }
    for m in mesh.materials.indices {
      mesh.materials[m].diffuse = color
      mesh.materials[m].emissive = color * 0.35
    }
    return mesh
  }
}
