extension USDStageReader {
  /// A blend shape that moves a mesh at the reader's time: its `BlendShape` prim, its weight,
  /// the points its offsets move (its `pointIndices`, or every point) and its sub-shapes.
  struct WeightedBlendShape {
    var target: String
    var weight: Double
    var indices: [Int64]
    /// The rest, the in-betweens and the shape, by weight.
    var shapes: [SubShape]
  }

  /// The UsdSkel blend shapes (`skel:blendShapes`, their `BlendShape` prims in
  /// `skel:blendShapeTargets`) that move mesh `prim` of `pointCount` points at the reader's
  /// time, as usd-core's `UsdSkelBakeSkinning` finds them before it skins: each shape the
  /// animation bound to the mesh's skeleton gives a weight other than 0 in `blendShapeWeights`.
  ///
  /// - Returns: nil where usd-core applies none (the mesh names no shape, is under no `SkelRoot`
  ///   or binds no skeleton); the shapes (none where every weight is 0); or why the shapes cannot
  ///   be applied (drawn without them, with a warning): no `SkelBindingAPI` on the mesh, a
  ///   target that is not a blend shape, offsets that do not fit the points, an in-between
  ///   without a weight of its own.
  func weightedBlendShapes(_ prim: String, pointCount: Int) -> Result<[WeightedBlendShape], USDSkinningIssue>?
  {
    guard case .tokens(let names)? = value(prim + ".skel:blendShapes"), !names.isEmpty,
      skelRoot(of: prim) != nil
    else { return nil }
    guard hasSkelBindingAPI(prim) else {
      return .failure(.init("names blend shapes but not SkelBindingAPI applied, so usd-core applies none"))
    }
    guard let skeleton = inheritedTarget("skel:skeleton", from: prim) else { return nil }
    let weights = blendShapeWeights(skeleton: skeleton, shapes: names)
    guard weights.contains(where: { $0 != 0 }) else { return .success([]) }
    guard case .paths(let targets)? = values[prim + ".skel:blendShapeTargets"], targets.count == names.count
    else {
      return .failure(
        .init("names \(names.count) blend shapes and not one skel:blendShapeTargets target each"))
    }
    // The stage's in-between attributes, found once for all of the mesh's shapes.
    let inbetweens = values.keys.filter { $0.containsASCII(".inbetweens:") }
    var found: [WeightedBlendShape] = []
    for (name, (target, weight)) in zip(names, zip(targets, weights)) where weight != 0 {
      guard primTypes[target] == "BlendShape", case .vectors(let offsets)? = values[target + ".offsets"]
      else {
        return .failure(
          .init("has blend shape \(name) targeting \(target), which is not a BlendShape with offsets"))
      }
      var indices = Array(0..<Int64(pointCount))
      if case .ints(let given)? = values[target + ".pointIndices"] { indices = given }
      guard indices.count == offsets.count, indices.allSatisfy({ $0 >= 0 && $0 < pointCount }) else {
        return .failure(
          .init(
            "has blend shape \(target) of \(offsets.count) offsets for \(indices.count) point indices of its \(pointCount) points"
          ))
      }
      switch subShapes(of: target, primary: offsets.doubles, among: inbetweens) {
      case .success(let shapes):
        found.append(WeightedBlendShape(target: target, weight: weight, indices: indices, shapes: shapes))
      case .failure(let issue): return .failure(issue)
      }
    }
    return .success(found)
  }

  /// `vectors` (a mesh's points, or its normals one a point) each moved by `blendShapes`: each
  /// shape's `offsets` of its sub-shapes (their `offsets` or `normalOffsets`; none where not
  /// authored) at its points, interpolated linearly by weight between the two sub-shapes its
  /// weight falls between (extrapolated beyond the first and last), as usd-core weighs them.
  static func moved(
    _ vectors: [SIMD3<Double>], by blendShapes: [WeightedBlendShape],
    offsets: KeyPath<SubShape, [SIMD3<Double>]?>
  ) -> [SIMD3<Double>] {
    var moved = vectors
    for blendShape in blendShapes {
      let (lower, upper, t) = segment(blendShape.shapes, at: blendShape.weight)
      let (low, high) = (lower[keyPath: offsets], upper[keyPath: offsets])
      guard low != nil || high != nil else { continue }
      for (k, i) in blendShape.indices.enumerated() {
        let from = low?[k] ?? .zero, to = high?[k] ?? .zero
        moved[Int(i)] += from + (to - from) * t
      }
    }
    return moved
  }

  /// A blend shape's offsets at one weight: the rest (0, no offsets), an in-between, or the
  /// shape itself (1).
  struct SubShape {
    var weight: Double
    var offsets: [SIMD3<Double>]?
    /// Its `normalOffsets` (an in-between's `inbetweens:NAME:normalOffsets`), where authored.
    var normalOffsets: [SIMD3<Double>]? = nil
  }

  /// The sub-shapes of the blend shape at `target` by weight: the rest, its in-betweens
  /// (`inbetweens:NAME` among the attribute keys `inbetweens`, each with its `weight`) and the
  /// shape, whose `primary` offsets the in-betweens' match one for one; or why they cannot be
  /// used.
  private func subShapes(of target: String, primary: [SIMD3<Double>], among inbetweens: [String])
    -> Result<[SubShape], USDSkinningIssue>
  {
    var shapes = [
      SubShape(weight: 0, offsets: nil),
      SubShape(weight: 1, offsets: primary, normalOffsets: Self.vectors(values[target + ".normalOffsets"])),
    ]
    let prefix = target + ".inbetweens:"
    let keys = inbetweens.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains(":") }
    for key in keys.sorted() {
      guard case .vectors(let offsets)? = values[key], offsets.count == primary.count,
        case .double(let weight)? = values[USDLayer.inbetweenWeight(of: key)], weight.isFinite,
        !shapes.contains(where: { $0.weight == weight })
      else {
        return .failure(
          .init(
            "has in-between shape \(key) without a weight of its own (not 0 or 1) or without one offset per point of its shape"
          ))
      }
      shapes.append(
        SubShape(
          weight: weight, offsets: offsets.doubles,
          normalOffsets: Self.vectors(values[key + ":normalOffsets"])))
    }
    return .success(shapes.sorted { $0.weight < $1.weight })
  }

  /// The two sub-shapes of `shapes` (sorted by weight, at least two) that `weight` falls
  /// between, and how far from the first to the second: beyond the first or last, the nearest
  /// pair extrapolated, as usd-core's `UsdSkelBlendShapeQuery` weighs them.
  static func segment(_ shapes: [SubShape], at weight: Double) -> (SubShape, SubShape, Double) {
    var k = 0
    while k + 2 < shapes.count, weight > shapes[k + 1].weight { k += 1 }
    let (lower, upper) = (shapes[k], shapes[k + 1])
    return (lower, upper, (weight - lower.weight) / (upper.weight - lower.weight))
  }

  /// The weights at the reader's time of mesh shapes `shapes` (its `skel:blendShapes`, in
  /// order) from the animation bound to `skeleton` (its nearest `skel:animationSource` at or
  /// above it), handed over as ``USDAnimMapper`` hands them (a name listed twice as usd-core
  /// maps it); all 0 without one.
  private func blendShapeWeights(skeleton: String, shapes: [String]) -> [Double] {
    guard let animation = inheritedTarget("skel:animationSource", from: skeleton),
      primTypes[animation] == "SkelAnimation",
      case .tokens(let names)? = value(animation + ".blendShapes"),
      case .doubles(let weights)? = value(animation + ".blendShapeWeights"), weights.count == names.count
    else { return Array(repeating: 0, count: shapes.count) }
    return USDAnimMapper.remap(weights.map { $0.isFinite ? $0 : 0 }, from: names, to: shapes, fallback: 0)
  }

  /// The authored per-point normals `normals` of mesh `prim` (`normalsKey` the attribute)
  /// moved by its weighted blend shapes `blendShapes` (``weightedBlendShapes(_:pointCount:)``)
  /// and made unit, as usd-core's `UsdSkelBakeSkinning` moves them: each shape's
  /// `normalOffsets` (an in-between's its own, none where not authored), weighted as its
  /// `offsets` are. Normals that are not one a point (face varying, indexed) are moved by
  /// neither.
  ///
  /// - Returns: nil where no weighted shape has normal offsets; the moved normals; or the shapes
  ///   whose normal offsets are not applied, and why (drawn unmoved, with a warning).
  func blendShapeNormals(
    _ prim: String, normalsKey: String, normals: [SIMD3<Double>], by blendShapes: [WeightedBlendShape]
  ) -> Result<[SIMD3<Double>], USDSkinningIssue>? {
    let moving = blendShapes.filter { $0.shapes.contains { $0.normalOffsets != nil } }
    guard !moving.isEmpty else { return nil }
    let perPoint = ["vertex", "varying"].contains(interpolations[normalsKey] ?? "vertex")
    guard perPoint, values[normalsKey + ":indices"] == nil else {
      return .failure(
        .init(
          "has blend shapes \(Self.list(moving.map(\.target))) that move its normals (normalOffsets), which usd-core's "
            + "UsdSkelBakeSkinning and ARScene move only where there is one normal a point: its normals drawn unmoved"
        ))
    }
    for blendShape in moving
    where !blendShape.shapes.allSatisfy({
      $0.normalOffsets.map { $0.count == blendShape.indices.count } ?? true
    })
      || !blendShape.indices.allSatisfy({ $0 < normals.count })
    {
      return .failure(
        .init(
          "has blend shape \(blendShape.target) whose normal offsets do not fit its points: its normals drawn unmoved"
        ))
    }
    return .success(
      Self.moved(normals, by: moving, offsets: \.normalOffsets).map { $0.normalizedOrNil() ?? $0 })
  }

  /// The vectors `value` holds, if it holds vectors.
  private static func vectors(_ value: USDValue?) -> [SIMD3<Double>]? {
    if case .vectors(let v)? = value { return v.doubles }
    return nil
  }
}
