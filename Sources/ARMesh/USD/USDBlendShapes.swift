extension USDStageReader {
  /// The points of mesh `prim` moved by its UsdSkel blend shapes (`skel:blendShapes`, their
  /// `BlendShape` prims in `skel:blendShapeTargets`) at the reader's time, as usd-core's
  /// `UsdSkelBakeSkinning` moves them before it skins: each shape's `offsets` (at its
  /// `pointIndices`, or at every point) times its weight, the weight the animation bound to the
  /// mesh's skeleton gives the shape's name in `blendShapeWeights` (0 where it names none).
  ///
  /// - Returns: nil where usd-core applies none (the mesh names no shape, is under no `SkelRoot`
  ///   or binds no skeleton): it is drawn as authored; the points (unmoved where every weight
  ///   is 0); or why the shapes cannot be applied (drawn without them, with a warning): a target
  ///   that is not a blend shape, offsets that do not fit the points, in-between shapes.
  func blendShapePoints(_ prim: String, points: [SIMD3<Double>]) -> Result<[SIMD3<Double>], USDSkinningIssue>?
  {
    guard case .tokens(let names)? = value(prim + ".skel:blendShapes"), !names.isEmpty,
      skelRoot(of: prim) != nil, let skeleton = inheritedTarget("skel:skeleton", from: prim)
    else { return nil }
    let weights = blendShapeWeights(skeleton: skeleton)
    guard names.contains(where: { (weights[$0] ?? 0) != 0 }) else { return .success(points) }
    guard case .paths(let targets)? = values[prim + ".skel:blendShapeTargets"], targets.count == names.count
    else {
      return .failure(
        .init("names \(names.count) blend shapes and not one skel:blendShapeTargets target each"))
    }
    var moved = points
    for (name, target) in zip(names, targets) {
      guard let weight = weights[name], weight != 0 else { continue }
      guard primTypes[target] == "BlendShape", case .vectors(let offsets)? = values[target + ".offsets"]
      else {
        return .failure(
          .init("has blend shape \(name) targeting \(target), which is not a BlendShape with offsets"))
      }
      let prefix = target + ".inbetweens:"
      guard !values.keys.contains(where: { $0.hasPrefix(prefix) }) else {
        return .failure(
          .init("has blend shape \(target) with in-between shapes, which ARScene does not apply"))
      }
      var indices = Array(0..<Int64(points.count))
      if case .ints(let given)? = values[target + ".pointIndices"] { indices = given }
      guard indices.count == offsets.count, indices.allSatisfy({ $0 >= 0 && $0 < points.count }) else {
        return .failure(
          .init(
            "has blend shape \(target) of \(offsets.count) offsets for \(indices.count) point indices of its \(points.count) points"
          ))
      }
      for (i, offset) in zip(indices, offsets) { moved[Int(i)] += offset * weight }
    }
    return .success(moved)
  }

  /// The blend-shape weights at the reader's time of the animation bound to `skeleton` (its
  /// nearest `skel:animationSource` at or above it), by shape name; empty without one.
  private func blendShapeWeights(skeleton: String) -> [String: Double] {
    guard let animation = inheritedTarget("skel:animationSource", from: skeleton),
      primTypes[animation] == "SkelAnimation",
      case .tokens(let names)? = value(animation + ".blendShapes"),
      case .doubles(let weights)? = value(animation + ".blendShapeWeights"), weights.count == names.count
    else { return [:] }
    return Dictionary(zip(names, weights.map { $0.isFinite ? $0 : 0 })) { first, _ in first }
  }
}
