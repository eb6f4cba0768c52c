import ARMath

extension USDStageReader {
  /// The `UsdPreviewSurface` shader under the material at `path` as a material: its diffuse
  /// and emissive colours (constant, or a `UsdUVTexture`'s image from the package, whose bytes
  /// go into `images`), normal and occlusion maps, metallic, roughness and opacity; else its
  /// MaterialX surface's constants (``materialXMaterial(_:kind:of:images:warnings:)``); nil when it has
  /// neither.
  func previewSurface(of path: String, images: inout [String: [UInt8]], warnings: inout [String]) -> Material?
  {
    // A material whose `outputs:surface` is not a UsdPreviewSurface may be drawn from its
    // MaterialX surface (Reality Composer Pro's).
    if connectedPreviewSurface(of: path) == nil, let node = materialXSurface(of: path) {
      return materialXMaterial(node.path, kind: node.kind, of: path, images: &images, warnings: &warnings)
    }
    guard let shader = previewSurfaceShader(of: path) else { return nil }
    var material = Material(name: Self.name(of: path))
    func colour(_ input: String) -> SIMD3<Float>? { inputColour(shader.path, input) }
    material.diffuse = colour("diffuseColor") ?? SIMD3(0.18, 0.18, 0.18)
    material.emissive = colour("emissiveColor") ?? .zero
    func number(_ input: String) -> Double? { inputNumber(shader.path, input) }
    if let opacity = number("opacity") { material.opacity = Float(Swift.min(Swift.max(opacity, 0), 1)) }
    // UsdPreviewSurface's metallic workflow is glTF's model (fallbacks: metallic 0, roughness 0.5).
    material.metallicRoughness = Material.MetallicRoughness(
      metallic: Float(Swift.min(Swift.max(number("metallic") ?? 0, 0), 1)),
      roughness: Float(Swift.min(Swift.max(number("roughness") ?? 0.5, 0), 1)))
    // Opacity is its input's alone (a diffuse texture's alpha counts only when connected to it,
    // below), cut at the threshold where one is set, as Storm draws it: a constant below the
    // threshold draws nothing, one at or above it draws opaque.
    let threshold = number("opacityThreshold") ?? 0
    material.alphaMode =
      threshold > 0 ? .mask(cutoff: Float(threshold)) : material.opacity < 1 ? .blend : .opaque
    // Textures as glTF's converted: roughness in green and metallic in blue of one texture
    // (or each a channel of its own texture), opacity in the diffuse texture's alpha.
    var applied: Set<String> = []
    if let texture = metallicRoughnessTexture(of: shader.path, images: &images, warnings: &warnings) {
      material.metallicRoughnessTexture = texture.reference
      material.metallicRoughness = Material.MetallicRoughness(
        metallic: texture.factors.x, roughness: texture.factors.y)
      applied = texture.inputs
    } else {
      // Or each from a texture of its own, in place of its constant.
      var factors = material.metallicRoughness!
      if let map = channelTexture("metallic", of: shader.path, images: &images, warnings: &warnings) {
        (material.metallicTexture, factors.metallic) = (map.reference, map.factor)
        applied.insert("metallic")
      }
      if let map = channelTexture("roughness", of: shader.path, images: &images, warnings: &warnings) {
        (material.roughnessTexture, factors.roughness) = (map.reference, map.factor)
        applied.insert("roughness")
      }
      material.metallicRoughness = factors
    }
    if let diffuse = self.shader(feeding: shader.path + ".inputs:diffuseColor", id: "UsdUVTexture"),
      connections[shader.path + ".inputs:opacity"]?.first == diffuse + ".outputs:a"
    {
      material.alphaMode = threshold > 0 ? .mask(cutoff: Float(threshold)) : .blend
      material.opacity = 1
      applied.insert("opacity")
    }
    // Textures on other inputs are not applied: said, not dropped without a word.
    let unapplied = Self.untexturedInputs.filter {
      interfaceResolved(shader.path + ".inputs:" + $0).reachesNode && !applied.contains($0)
    }
    if !unapplied.isEmpty {
      warnings.append(
        "\(layer.path): material \(path): its \(unapplied.joined(separator: ", ")) texture\(unapplied.count == 1 ? " is" : "s are") "
          + "not applied (ARScene draws metallic and roughness from a texture's channel, and opacity from the diffuse texture's alpha): drawn with constants"
      )
    }
    // A connected input takes its texture's value in place of its constant.
    if let texture = materialTexture(
      feeding: shader.path + ".inputs:diffuseColor", images: &images, warnings: &warnings)
    {
      material.diffuseTexture = texture
      material.diffuse = textureScale(feeding: shader.path + ".inputs:diffuseColor", warnings: &warnings)
    }
    if let texture = materialTexture(
      feeding: shader.path + ".inputs:emissiveColor", images: &images, warnings: &warnings)
    {
      material.emissiveTexture = texture
      material.emissive = textureScale(feeding: shader.path + ".inputs:emissiveColor", warnings: &warnings)
    }
    // Normal maps as exporters write them (scale 2, bias −1: the renderer's decoding); the
    // occlusion map's red channel.
    material.normalTexture = materialTexture(
      feeding: shader.path + ".inputs:normal", images: &images, warnings: &warnings)
    material.occlusionTexture = materialTexture(
      feeding: shader.path + ".inputs:occlusion", images: &images, warnings: &warnings)
    return material
  }

  /// The `UsdPreviewSurface` shader of the material at `material`: the one its `outputs:surface`
  /// is connected to, else (a surface output connected elsewhere, or none) the first under it.
  func previewSurfaceShader(of material: String) -> (path: String, type: String)? {
    if let connected = connectedPreviewSurface(of: material) {
      return (connected, primTypes[connected] ?? "Shader")
    }
    return prims.first { prim in
      guard prim.type == "Shader", prim.path.hasPrefix(material + "/"),
        case .token("UsdPreviewSurface")? = values[prim.path + ".info:id"]
      else { return false }
      return true
    }
  }

  /// The `UsdPreviewSurface` shader the material's `outputs:surface` is connected to, if it is
  /// one: directly, or through node-graph outputs (Houdini's exports wrap the surface in a
  /// `NodeGraph`), a few hops at most.
  func connectedPreviewSurface(of material: String) -> String? {
    var output = material + ".outputs:surface"
    for _ in 0..<4 {
      guard let source = connections[output]?.first else { return nil }
      let connected = String(source[..<(source.lastASCII(".") ?? source.endIndex)])
      if case .token("UsdPreviewSurface")? = values[connected + ".info:id"] { return connected }
      guard primTypes[connected] == "NodeGraph" else { return nil }
      output = source
    }
    return nil
  }

  /// The attribute holding mesh `prim`'s authored normals: `primvars:normals`, else `normals`
  /// (nil where neither holds vectors).
  func authoredNormalsKey(_ prim: String) -> String? {
    [prim + ".primvars:normals", prim + ".normals"].first { key in
      if case .vectors? = value(key) { return true }
      return false
    }
  }

  /// The mesh with its texture coordinates (its first `texCoord2f` primvar: `primvars:st`,
  /// Blender's `primvars:UVMap`) and its normals (`normals`, or `primvars:normals`), one vertex
  /// a triangle corner so that face-varying values keep their seams; nil when it has neither
  /// (flat normals follow). `corners` gives each triangle corner's face-vertex index and face;
  /// `normals`, the authored normals' values where blend shapes moved them;
  /// `normalTransforms`, each point's normal transform where a skin moved the points.
  func cornerAttributes(
    _ prim: String, points: Vector3Array, faceVertexCount: Int, faceCount: Int, triangles: [UInt32],
    corners: [(faceVertex: Int, face: Int)], normals moved: [SIMD3<Double>]? = nil,
    normalTransforms: [Matrix3<Double>]? = nil
  ) -> GLTFPrimitiveAttributes? {
    let texcoords = (primvars[prim] ?? []).filter { key in
      guard !key.hasSuffix(":indices"), case .texcoords? = value(key) else { return false }
      return true
    }
    // Of several sets, the one the bound material's textures read (a primvar reader's
    // `varname`), else the first by name.
    let read = texcoords.count > 1 ? textureCoordinateSet(readBy: boundMaterial(of: prim)) : nil
    let uvName = texcoords.first { read != nil && $0 == prim + ".primvars:" + read! } ?? texcoords.first
    let normalName = authoredNormalsKey(prim)
    /// Each triangle corner's value of primvar `name` (`raw`), by its interpolation.
    func perCorner<T>(_ name: String, _ raw: [T], fallback: String) -> [T]? {
      var table = raw
      if case .ints(let order)? = value(name + ":indices") {
        guard order.allSatisfy({ $0 >= 0 && $0 < raw.count }) else { return nil }
        table = order.map { raw[Int($0)] }
      }
      switch interpolations[name] ?? fallback {
      case "faceVarying":
        guard table.count == faceVertexCount else { return nil }
        return corners.map { table[$0.faceVertex] }
      case "uniform":
        guard table.count == faceCount else { return nil }
        return corners.map { table[$0.face] }
      case "constant":
        guard let first = table.first else { return nil }
        return Array(repeating: first, count: corners.count)
      default:  // vertex, varying
        guard table.count == points.count else { return nil }
        return triangles.map { table[Int($0)] }
      }
    }
    var uv: [SIMD2<Double>]?, normals: [SIMD3<Double>]?, colors: [SIMD3<Double>]?
    if let uvName, case .texcoords(let raw)? = value(uvName) {
      uv = perCorner(uvName, raw, fallback: "vertex")
    }
    if let normalName, case .vectors(let authored)? = value(normalName) {
      normals = perCorner(normalName, moved ?? authored.doubles, fallback: "vertex")?.map { n in
        n.x.isFinite && n.y.isFinite && n.z.isFinite ? n : .zero
      }
      // A skinned mesh's normals turn with their points' blended joints.
      if let normalTransforms, let given = normals {
        normals = zip(given, triangles).map { normalTransforms[Int($1)] * $0 }
      }
    }
    // Display colours that vary, on a mesh bound to no material: Storm's fallback surface.
    let colorName = prim + ".primvars:displayColor"
    if drawsVaryingDisplayColor(prim), case .vectors(let raw)? = value(colorName) {
      colors = perCorner(colorName, raw.doubles, fallback: "constant")?.map { c in
        c.x.isFinite && c.y.isFinite && c.z.isFinite ? c : SIMD3(1, 1, 1)
      }
    }
    guard uv != nil || normals != nil || colors != nil, corners.count == triangles.count else { return nil }
    var attributes = GLTFPrimitiveAttributes(
      positions: points.withReader { point in triangles.map { point(Int($0)) } },
      triangles: (0..<UInt32(triangles.count)).map { $0 })
    // USD's st has its origin at the bottom left, as ARScene's; the glTF builder turns v, so
    // turn it first.
    attributes.texcoords = uv?.map { SIMD2($0.x, 1 - $0.y) }
    attributes.normals = normals
    attributes.colors = colors
    return attributes
  }
}
