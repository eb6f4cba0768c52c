import ARMath

/// The surfaces Reality Composer Pro writes: a material whose `outputs:mtlx:surface` is a
/// MaterialX node, either MaterialX's `UsdPreviewSurface` (`ND_UsdPreviewSurface_surfaceshader`,
/// the same inputs as UsdPreviewSurface) or RealityKit's PBR surface
/// (`ND_realitykit_pbr_surfaceshader`, and its `_2_0`: `baseColor` for the diffuse colour). Their
/// constant inputs are drawn, and a base colour read from an image node
/// (``materialXImageTexture(feeding:images:warnings:)``); what else is connected to them (image,
/// texture-coordinate and maths nodes) is not, and a warning names it.
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

  /// The material MaterialX surface node `shader` (of `kind`, under `material`) draws: its
  /// constant colours, metallic, roughness and opacity, and its base colour's image (its bytes
  /// put in `images`); a warning naming the inputs connected to other nodes, which are drawn
  /// with their constants or the fallbacks.
  func materialXMaterial(
    _ shader: String, kind: SurfaceKind, of material: String, images: inout [String: [UInt8]],
    warnings: inout [String]
  ) -> Material {
    var out = Material(name: String(material.split(separator: "/").last ?? "material"))
    func colour(_ input: String) -> SIMD3<Float>? { inputColour(shader, input) }
    func number(_ input: String) -> Double? { inputNumber(shader, input) }
    let diffuse = kind == .realityKitPBR ? "baseColor" : "diffuseColor"
    out.diffuse = colour(diffuse) ?? SIMD3(repeating: 0.18)
    // The base colour read from an image node: the texture, in place of the constant.
    var evaluated: Set<String> = []
    if let texture = materialXImageTexture(
      feeding: shader + ".inputs:" + diffuse, images: &images, warnings: &warnings)
    {
      (out.diffuseTexture, out.diffuse) = (texture, SIMD3(1, 1, 1))
      evaluated.insert(shader + ".inputs:" + diffuse)
    }
    out.emissive = colour("emissiveColor") ?? .zero
    out.metallicRoughness = Material.MetallicRoughness(
      metallic: Float(min(max(number("metallic") ?? 0, 0), 1)),
      roughness: Float(min(max(number("roughness") ?? 0.5, 0), 1)))
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
