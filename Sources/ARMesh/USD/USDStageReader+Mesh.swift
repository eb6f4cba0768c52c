import ARMath

extension USDStageReader {
  /// The surface a prim draws, a mesh's or an implicit shape's made a mesh, and the prim whose
  /// transform places it: its own, or a skinned mesh's skeleton (UsdSkel skins into skeleton
  /// space); nil for other prims and meshes without points. A skin that cannot be applied is
  /// a warning, and the mesh drawn as authored.
  func surface(_ prim: (path: String, type: String), warnings: inout [String]) throws(USDError)
    -> (attributes: GLTFPrimitiveAttributes, placedBy: String)?
  {
    if prim.type == "Mesh" {
      guard case .vectors(var points)? = value(prim.path + ".points") else { return nil }
      // Blend shapes first, then the skin, as UsdSkel deforms a mesh.
      var shaped = false, normals: [SIMD3<Double>]?
      switch weightedBlendShapes(prim.path, pointCount: points.count) {
      case .success(let blendShapes)?:
        (points, shaped) = (
          Vector3Array(Self.moved(points.doubles, by: blendShapes, offsets: \.offsets)), true
        )
        normals = movedNormals(prim.path, by: blendShapes, warnings: &warnings)
      case .failure(let issue)?:
        warnings.append("\(layer.path): mesh \(prim.path) \(issue.reason); drawn without its blend shapes")
      case nil: break
      }
      switch skin(prim.path, points: points) {
      case .success(let skin)?:
        return try meshAttributes(prim.path, skin: skin, normals: normals).map { ($0, skin.skeleton) }
      case .failure(let issue)?:
        warnings.append("\(layer.path): mesh \(prim.path) \(issue.reason); drawn unskinned, as authored")
      case nil: break
      }
      return try meshAttributes(prim.path, points: shaped ? points : nil, normals: normals).map {
        ($0, prim.path)
      }
    }
    guard USDImplicitShapes.types.contains(prim.type) else { return nil }
    // The tolerance in the shape's own units: metres over the stage's unit and the largest
    // scale of its transform.
    let linear = try worldMatrix(prim.path).linear
    let scale = [linear.columns.0, linear.columns.1, linear.columns.2].map { ($0 * $0).sum().squareRoot() }
      .max()!
    // A size declared other than `double` (`float radius = 3`): usd-core reads no value from
    // it (it does not cast), and its bounds and Hydra's drawing take the schema's fallback.
    for (name, type) in implicitSizes(of: prim.path) {
      warnings.append(
        "\(layer.path): \(prim.path).\(name) is declared \(type) where the \(prim.type) schema says double: "
          + "drawn at the schema's fallback, as usd-core reads it")
    }
    let shape = try USDImplicitShapes.mesh(
      prim.type,
      number: { name in
        let key = prim.path + "." + name
        if layer.nonDoubleScalars[key] == nil, case .double(let v)? = value(key) { return v }
        return nil
      },
      token: { name in
        if case .token(let t)? = value(prim.path + "." + name) { return t }
        return nil
      }, place: prim.path, path: layer.path, tolerance: tolerance / max(metersPerUnit * scale, 1e-300))
    return (shape, prim.path)
  }

  /// The size attributes of implicit prim `prim` (`size`, `radius`, `radiusTop`,
  /// `radiusBottom`, `height`, `width`, `length`) declared with a type other than USD's
  /// `double`, with that type.
  func implicitSizes(of prim: String) -> [(name: String, type: String)] {
    ["size", "radius", "radiusTop", "radiusBottom", "height", "width", "length"].compactMap { name in
      layer.nonDoubleScalars[prim + "." + name].map { (name, $0) }
    }
  }

  /// A mesh prim's points (or `skin`'s, or `moved`: its blend shapes applied) and triangles
  /// (polygons as fans; left-handed ones turned); nil for a mesh without points, or without
  /// faces (points only: USD's renderers draw nothing of it, and ``build(assembling:)`` says so).
  func meshAttributes(
    _ prim: String, skin: USDSkin? = nil, points moved: Vector3Array? = nil,
    normals: [SIMD3<Double>]? = nil
  )
    throws(USDError)
    -> GLTFPrimitiveAttributes?
  {
    guard case .vectors(let authored)? = value(prim + ".points") else { return nil }
    let points = skin.map { Vector3Array($0.points) } ?? moved ?? authored
    guard case .ints(let counts)? = value(prim + ".faceVertexCounts"),
      case .ints(let indices)? = value(prim + ".faceVertexIndices")
    else { return nil }
    // A crate's floats were checked as they were decoded: a flag, not a pass over them.
    guard points.allFinite else {
      throw USDError(path: layer.path, place: prim + ".points", reason: "a point that is not finite")
    }
    var leftHanded = false
    if case .token(let o)? = values[prim + ".orientation"] { leftHanded = o == "leftHanded" }
    let fans = try fanCache.fans(
      counts: counts, indices: indices, pointCount: points.count, leftHanded: leftHanded,
      keepCorners: primvars[prim] != nil || values[prim + ".normals"] != nil, prim: prim, path: layer.path)
    let (triangles, corners) = (fans.triangles, fans.corners)
    var attributes =
      cornerAttributes(
        prim, points: points, faceVertexCount: indices.count, faceCount: counts.count, triangles: triangles,
        corners: corners, normals: normals, normalTransforms: skin?.normalTransforms)
      ?? GLTFPrimitiveAttributes(positions: points, triangles: triangles)
    // Without authored normals, a surface USD subdivides (catmullClark, its fallback, or loop)
    // is drawn smooth, as Hydra draws it unrefined; bilinear and none stay faceted.
    if attributes.normals == nil, ["catmullClark", "loop"].contains(subdivisionScheme(prim)) {
      if attributes.positions.count == points.count, GLTFPlacementLayout.isOnePiece(attributes) {
        // One vertex a point, in a mesh placed in one piece of work: made as it is placed.
        attributes.smoothNormalsPending = true
      } else {
        // One vertex a point, or (where texture coordinates vary by face) one a triangle corner.
        let smooth = GLTFPrimitiveAttributes.smoothNormals(points, triangles)
        attributes.normals =
          attributes.positions.count == points.count ? smooth : triangles.map { smooth[Int($0)] }
      }
    }
    return attributes
  }

  /// Mesh `prim`'s authored normals moved by its weighted blend shapes `blendShapes`
  /// (``blendShapeNormals(_:normalsKey:normals:by:)``), nil where they do not move them; why
  /// not, where they cannot, in `warnings`.
  private func movedNormals(_ prim: String, by blendShapes: [WeightedBlendShape], warnings: inout [String])
    -> [SIMD3<Double>]?
  {
    guard let key = authoredNormalsKey(prim), case .vectors(let authored)? = value(key) else { return nil }
    switch blendShapeNormals(prim, normalsKey: key, normals: authored.doubles, by: blendShapes) {
    case .success(let moved)?: return moved
    case .failure(let issue)?: warnings.append("\(layer.path): mesh \(prim) \(issue.reason)")
    case nil: break
    }
    return nil
  }

  /// The mesh's `subdivisionScheme`, USD's fallback `catmullClark` when unauthored.
  func subdivisionScheme(_ prim: String) -> String {
    if case .token(let scheme)? = value(prim + ".subdivisionScheme") { return scheme }
    return "catmullClark"
  }
}
