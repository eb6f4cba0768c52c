import ARMath

/// The surfaces Reality Composer Pro writes: a material whose `outputs:mtlx:surface` is a
/// MaterialX node, either MaterialX's `UsdPreviewSurface` (`ND_UsdPreviewSurface_surfaceshader`,
/// the same inputs as UsdPreviewSurface) or RealityKit's PBR surface
/// (`ND_realitykit_pbr_surfaceshader`, and its `_2_0`: `baseColor` for the diffuse colour). Their
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
  }

  /// Constant colour input `input` of shader `shader`, nil when it has none.
  func inputColour(_ shader: String, _ input: String) -> SIMD3<Float>? {
    guard case .vector(let c)? = values[shader + ".inputs:" + input] else { return nil }
    return SIMD3(Float(c.x), Float(c.y), Float(c.z))
  }

  /// Constant number input `input` of shader `shader`, nil when it has none or it is not finite.
  func inputNumber(_ shader: String, _ input: String) -> Double? {
    guard case .double(let x)? = values[shader + ".inputs:" + input], x.isFinite else { return nil }
    return x
  }

  /// The MaterialX surface node the material at `material` is drawn from, through its
  /// `outputs:mtlx:surface` (followed through node-graph outputs), if it is one ARScene reads.
  func materialXSurface(of material: String) -> (path: String, kind: SurfaceKind)? {
    var output = material + ".outputs:mtlx:surface"
    // A node graph's output connected on to a node inside it: a few hops at most.
    for _ in 0..<4 {
      guard let source = connections[output]?.first else { return nil }
      let node = String(source[..<(source.lastIndex(of: ".") ?? source.endIndex)])
      switch values[node + ".info:id"] {
      case .token("ND_UsdPreviewSurface_surfaceshader")?: return (node, .materialXPreview)
      case .token("ND_realitykit_pbr_surfaceshader")?, .token("ND_realitykit_pbr_surfaceshader_2_0")?:
        return (node, .realityKitPBR)
      default:
        guard primTypes[node] == "NodeGraph" else { return nil }
        output = source
      }
    }
    return nil
  }

  /// The inputs of a surface of `kind` that ARScene draws from image nodes, with the nodes each
  /// may read: colours from colour images, metallic, roughness and occlusion from one-channel
  /// ones (their red), the normal from a three-channel image through `ND_normal_map_decode`.
  static func materialXMaps(_ kind: SurfaceKind) -> [(input: String, nodes: Set<String>, normals: Bool)] {
    let (colours, scalars, vectors) = (
      materialXImageNodes, materialXScalarImageNodes, materialXVectorImageNodes
    )
    return [
      (kind == .realityKitPBR ? "baseColor" : "diffuseColor", colours, false),
      ("emissiveColor", colours, false), ("metallic", scalars, false), ("roughness", scalars, false),
      (kind == .realityKitPBR ? "ambientOcclusion" : "occlusion", scalars, false), ("normal", vectors, true),
    ]
  }

  /// Sets `material`'s map for surface input `input` (a name of ``materialXMaps(_:)``) to
  /// `texture`, the constant it replaces made neutral (white for a colour, 1 for a factor).
  static func apply(_ texture: TextureReference, as input: String, to material: inout Material) {
    switch input {
    case "baseColor", "diffuseColor": (material.diffuseTexture, material.diffuse) = (texture, SIMD3(1, 1, 1))
    case "emissiveColor": (material.emissiveTexture, material.emissive) = (texture, SIMD3(1, 1, 1))
    case "metallic":
      material.metallicTexture = texture
      material.metallicRoughness?.metallic = 1
    case "roughness":
      material.roughnessTexture = texture
      material.metallicRoughness?.roughness = 1
    case "normal": material.normalTexture = texture
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
    var out = Material(name: String(material.split(separator: "/").last ?? "material"))
    func colour(_ input: String) -> SIMD3<Float>? { inputColour(shader, input) }
    func number(_ input: String) -> Double? { inputNumber(shader, input) }
    let diffuse = kind == .realityKitPBR ? "baseColor" : "diffuseColor"
    out.diffuse = colour(diffuse) ?? SIMD3(repeating: 0.18)
    out.emissive = colour("emissiveColor") ?? .zero
    out.metallicRoughness = Material.MetallicRoughness(
      metallic: Float(min(max(number("metallic") ?? 0, 0), 1)),
      roughness: Float(min(max(number("roughness") ?? 0.5, 0), 1)))
    // Inputs read from image nodes: their textures, in place of the constants.
    var evaluated: Set<String> = []
    for map in Self.materialXMaps(kind) {
      let input = shader + ".inputs:" + map.input
      guard
        let texture = materialXImageTexture(
          feeding: input, nodes: map.nodes, decodingNormals: map.normals, images: &images,
          warnings: &warnings)
      else { continue }
      Self.apply(texture, as: map.input, to: &out)
      evaluated.insert(input)
    }
    if let opacity = number("opacity") { out.opacity = Float(min(max(opacity, 0), 1)) }
    if let threshold = number("opacityThreshold"), threshold > 0 {
      out.alphaMode = .mask(cutoff: Float(threshold))
      out.opacity = 1
    }
    let connected = connections.keys.filter { $0.hasPrefix(shader + ".inputs:") && !evaluated.contains($0) }
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
}
