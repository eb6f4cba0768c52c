import ARMath

/// The surfaces Reality Composer Pro and MaterialX write: a material whose
/// `outputs:mtlx:surface` is a MaterialX node, MaterialX's `UsdPreviewSurface`
/// (`ND_UsdPreviewSurface_surfaceshader`, the same inputs as UsdPreviewSurface), RealityKit's PBR
/// surface (`ND_realitykit_pbr_surfaceshader`, and its `_2_0`: `baseColor` for the diffuse colour),
/// Autodesk's Standard Surface (``USDMaterialXSurfaceInputs/standardSurface``), OpenPBR
/// (``USDMaterialXSurfaceInputs/openPBR``) or glTF PBR (``USDMaterialXSurfaceInputs/glTFPBR``). Their
/// constant inputs are drawn, and maps read from image nodes
/// (``materialXImageTexture(feeding:nodes:decodingNormals:images:warnings:)``); what else is
/// connected to them (texture-coordinate and maths nodes) is not, and a warning names it.
extension USDStageReader {
  /// Which surface node a material is drawn from.
  enum SurfaceKind {
    /// `UsdPreviewSurface`, through `outputs:surface`.
    case preview
    /// MaterialX's `ND_UsdPreviewSurface_surfaceshader`.
    case materialXPreview
    /// RealityKit's `ND_realitykit_pbr_surfaceshader` (or `_2_0`).
    case realityKitPBR
    /// MaterialX's Autodesk Standard Surface, `ND_standard_surface_surfaceshader`.
    case standardSurface
    /// MaterialX's OpenPBR Surface, `ND_open_pbr_surface_surfaceshader`.
    case openPBR
    /// MaterialX's glTF PBR, `ND_gltf_pbr_surfaceshader`.
    case glTFPBR
    /// RealityKit's unlit surface, `ND_realitykit_unlit_surfaceshader`.
    case realityKitUnlit
    /// MaterialX's unlit surface, `ND_surface_unlit`.
    case materialXUnlit

    /// The surface's inputs ARScene draws, by their names on it.
    var inputs: USDMaterialXSurfaceInputs {
      switch self {
      case .realityKitPBR: .realityKit
      case .standardSurface: .standardSurface
      case .openPBR: .openPBR
      case .glTFPBR: .glTFPBR
      case .realityKitUnlit: .realityKitUnlit
      case .materialXUnlit: .materialXUnlit
      case .preview, .materialXPreview: .preview
      }
    }
  }

  /// Constant colour input `input` of shader `shader` (``inputValue(_:_:)``), nil when it has
  /// none.
  func inputColour(_ shader: String, _ input: String) -> SIMD3<Float>? {
    guard case .vector(let c)? = inputValue(shader, input) else { return nil }
    return SIMD3(Float(c.x), Float(c.y), Float(c.z))
  }

  /// Constant number input `input` of shader `shader` (``inputValue(_:_:)``), nil when it has
  /// none or it is not finite.
  func inputNumber(_ shader: String, _ input: String) -> Double? {
    guard case .double(let x)? = inputValue(shader, input), x.isFinite else { return nil }
    return x
  }

  /// The value of shader `shader`'s input `input`: its own, or where it is connected to an
  /// interface input (its material's or a node graph's, as MaterialX's USD form and Reality
  /// Composer Pro's promoted inputs connect them), that input's, as UsdShade resolves it
  /// (``interfaceResolved(_:)``; nil where the interface input has no value: the shader's
  /// fallback). An input connected to a node's output keeps its own value, drawn in the node's
  /// place.
  func inputValue(_ shader: String, _ input: String) -> USDValue? {
    values[interfaceResolved(shader + ".inputs:" + input).attribute]
  }

  /// Where attribute `attribute`'s value comes from: itself, or the interface input (a
  /// `Material`'s or a `NodeGraph`'s) it is connected to, followed a few hops, a connection
  /// winning over a value authored beside it as in UsdShade; and whether the chain goes on to a
  /// node's output (a texture, maths), whose value ARScene does not compute.
  func interfaceResolved(_ attribute: String) -> (attribute: String, reachesNode: Bool) {
    var attribute = attribute
    for _ in 0..<4 {
      guard let source = connections[attribute]?.first else { return (attribute, false) }
      guard isInterfaceInput(source) else { return (attribute, true) }
      attribute = source
    }
    return (attribute, true)
  }

  /// Whether `attribute` is an interface input: an input of a `Material` or a `NodeGraph`.
  func isInterfaceInput(_ attribute: String) -> Bool {
    guard let dot = attribute.lastASCII("."),
      attribute[attribute.index(after: dot)...].hasPrefix("inputs:")
    else { return false }
    let type = primTypes[String(attribute[..<dot])]
    return type == "Material" || type == "NodeGraph"
  }

  /// The MaterialX surface node the material at `material` is drawn from, through its
  /// `outputs:mtlx:surface` (followed through node-graph outputs), if it is one ARScene reads.
  func materialXSurface(of material: String) -> (path: String, kind: SurfaceKind)? {
    var output = material + ".outputs:mtlx:surface"
    // A node graph's output connected on to a node inside it: a few hops at most.
    for _ in 0..<4 {
      guard let source = connections[output]?.first else { return nil }
      let node = String(source[..<(source.lastASCII(".") ?? source.endIndex)])
      switch values[node + ".info:id"] {
      case .token("ND_UsdPreviewSurface_surfaceshader")?: return (node, .materialXPreview)
      case .token("ND_realitykit_pbr_surfaceshader")?, .token("ND_realitykit_pbr_surfaceshader_2_0")?:
        return (node, .realityKitPBR)
      case .token("ND_standard_surface_surfaceshader")?: return (node, .standardSurface)
      case .token("ND_open_pbr_surface_surfaceshader")?: return (node, .openPBR)
      case .token("ND_gltf_pbr_surfaceshader")?: return (node, .glTFPBR)
      case .token("ND_realitykit_unlit_surfaceshader")?: return (node, .realityKitUnlit)
      case .token("ND_surface_unlit")?: return (node, .materialXUnlit)
      default:
        guard primTypes[node] == "NodeGraph" else { return nil }
        output = source
      }
    }
    return nil
  }

  /// The inputs of a surface (`inputs`) that ARScene draws from image nodes, with the nodes
  /// each may read: colours from colour images, metallic, roughness and occlusion from
  /// one-channel ones (their red), the normal from a three-channel image through a normal-map
  /// node.
  static func materialXMaps(_ inputs: USDMaterialXSurfaceInputs) -> [(
    input: String, nodes: Set<String>, normals: Bool
  )] {
    let (colours, scalars, vectors) = (
      materialXImageNodes, materialXScalarImageNodes, materialXVectorImageNodes
    )
    let maps: [(String?, Set<String>, Bool)] = [
      (inputs.diffuse, colours, false), (inputs.emissive, colours, false), (inputs.metallic, scalars, false),
      (inputs.roughness, scalars, false), (inputs.normal, vectors, true), (inputs.occlusion, scalars, false),
    ]
    return maps.compactMap { input, nodes, normals in input.map { ($0, nodes, normals) } }
  }

  /// Sets `material`'s map for surface input `input` (one of `inputs`' names) to `texture`:
  /// the constant it multiplies made its weight (a colour's, 1 without one; 1 for a factor).
  static func apply(
    _ texture: TextureReference, as input: String, of inputs: USDMaterialXSurfaceInputs,
    weights: (diffuse: Float, emissive: Float), to material: inout Material
  ) {
    switch input {
    case inputs.diffuse:
      (material.diffuseTexture, material.diffuse) = (texture, SIMD3(repeating: weights.diffuse))
    case inputs.emissive:
      (material.emissiveTexture, material.emissive) = (texture, SIMD3(repeating: weights.emissive))
    case inputs.metallic:
      material.metallicTexture = texture
      material.metallicRoughness?.metallic = 1
    case inputs.roughness:
      material.roughnessTexture = texture
      material.metallicRoughness?.roughness = 1
    case inputs.normal: material.normalTexture = texture
    default: material.occlusionTexture = texture
    }
  }

  /// The material MaterialX surface node `shader` (of `kind`, under `material`) draws: its
  /// constant colours, metallic, roughness and opacity, and the maps it reads from image nodes
  /// (``materialXMaps(_:)``, their bytes put in `images`); a warning naming the inputs connected
  /// to other nodes, which are drawn with their constants or the fallbacks.
  func materialXMaterial(
    _ shader: String, kind: SurfaceKind, of material: String, images: inout [String: [UInt8]],
    warnings: inout [String]
  ) -> Material {
    var out = Material(name: Self.name(of: material))
    let inputs = kind.inputs
    func colour(_ input: String) -> SIMD3<Float>? { inputColour(shader, input) }
    func number(_ input: String) -> Double? { inputNumber(shader, input) }
    func weight(_ w: (name: String, fallback: Double)?) -> Float {
      Float(w.map { number($0.name) ?? $0.fallback } ?? 1)
    }
    let weights = (diffuse: weight(inputs.diffuseWeight), emissive: weight(inputs.emissiveWeight))
    out.diffuse = (colour(inputs.diffuse) ?? inputs.diffuseFallback) * weights.diffuse
    out.emissive = inputs.emissive.map { (colour($0) ?? inputs.emissiveFallback) * weights.emissive } ?? .zero
    out.metallicRoughness = Material.MetallicRoughness(
      metallic: Float(min(max(inputs.metallic.flatMap(number) ?? inputs.metallicFallback, 0), 1)),
      roughness: Float(min(max(inputs.roughness.flatMap(number) ?? inputs.roughnessFallback, 0), 1)))
    out.isUnlit = inputs.isUnlit
    // Inputs read from image nodes: their textures, in place of the constants.
    var evaluated: Set<String> = []
    for map in Self.materialXMaps(inputs) {
      let input = shader + ".inputs:" + map.input
      guard
        let texture = materialXImageTexture(
          feeding: input, nodes: map.nodes, decodingNormals: map.normals, images: &images,
          warnings: &warnings)
      else { continue }
      Self.apply(texture, as: map.input, of: inputs, weights: weights, to: &out)
      evaluated.insert(input)
    }
    applyOpacity(of: shader, inputs: inputs, to: &out)
    let connected = connections.keys.filter {
      $0.hasPrefix(shader + ".inputs:") && !evaluated.contains($0) && interfaceResolved($0).reachesNode
    }
    .sorted()
    if !connected.isEmpty {
      let inputs = connected.map { String($0.dropFirst(shader.count + ".inputs:".count)) }
      warnings.append(
        "\(layer.path): material \(material) is drawn from its MaterialX surface \(shader)'s constants: its "
          + "\(inputs.joined(separator: ", ")) \(inputs.count == 1 ? "is" : "are") connected to nodes ARScene "
          + "does not evaluate (textures, maths), drawn with constants or fallbacks")
    }
    return out
  }

  /// Sets `material`'s opacity and alpha mode from surface `shader`'s opacity input (a number,
  /// or Standard Surface's colour whose mean is drawn): cut at its threshold input where one is
  /// set (a constant below it draws nothing, as Storm draws UsdPreviewSurface), or as glTF PBR's
  /// `alpha_mode` says (opaque, masked at `alpha_cutoff`, blended); else blended below 1.
  func applyOpacity(of shader: String, inputs: USDMaterialXSurfaceInputs, to material: inout Material) {
    let opacity =
      inputNumber(shader, inputs.opacity)
      ?? inputColour(shader, inputs.opacity).map { Double(($0.x + $0.y + $0.z) / 3) }
    if let opacity { material.opacity = Float(min(max(opacity, 0), 1)) }
    let threshold = inputs.opacityThreshold.flatMap { inputNumber(shader, $0) } ?? 0
    material.alphaMode =
      threshold > 0 ? .mask(cutoff: Float(threshold)) : material.opacity < 1 ? .blend : .opaque
    guard let alpha = inputs.alphaMode else { return }
    switch inputNumber(shader, alpha.mode) ?? 0 {
    case 1:
      let cutoff = inputNumber(shader, alpha.cutoff) ?? alpha.cutoffFallback
      material.alphaMode = .mask(cutoff: Float(min(max(cutoff, 0), 1)))
    case 2: material.alphaMode = .blend
    default: (material.alphaMode, material.opacity) = (.opaque, 1)
    }
  }
}
