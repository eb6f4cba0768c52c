import ARMath
import ARMesh

/// A material ready for shading: linear colours and a linear-light texture.
struct ShadingMaterial: @unchecked Sendable {
  var diffuse: SIMD3<Float>
  var specular: SIMD3<Float>
  var emissive: SIMD3<Float>
  var shininess: Float
  var opacity: Float
  // Views, not references: the draw call keeps the textures alive, and a class reference here
  // would be retained and released for every pixel shaded, on every thread.
  var texture: TextureView?
  /// `map_d`: opacity from its red channel (linear), multiplied into the alpha.
  var opacityTexture: TextureView?
  var alphaMode: AlphaMode
  /// A masked surface's alpha cutoff: drawn at or above it.
  var maskCutoff: Float = 0.5
  /// glTF's metallic-roughness BRDF: the metallic factor and the distribution's α (roughness²,
  /// at least 0.002 so that a perfect mirror still reflects a point light somewhere); nil for
  /// Blinn-Phong.
  var metallicRoughness: (metallic: Float, alpha: Float)?
  /// The factors as given (the texture multiplies them per sample) and glTF's
  /// metallic-roughness texture: roughness in green, metallic in blue.
  var metallicFactor: Float = 0, roughnessFactor: Float = 1
  var metallicRoughnessTexture: TextureView?
  /// Metallic and roughness maps of their own (USD's), each read from one channel (0 red to 3
  /// alpha), in place of the combined texture's blue and green.
  var metallicTexture: (view: TextureView, channel: Int)?
  var roughnessTexture: (view: TextureView, channel: Int)?
  /// Emission as a colour image (linear once decoded), multiplying ``emissive``.
  var emissiveTexture: TextureView?
  /// glTF's tangent-space normal map, as data, and its scale on X and Y.
  var normalTexture: TextureView?
  var normalScale: Float = 1
  /// glTF's ambient-occlusion map (red channel, as data) and its strength.
  var occlusionTexture: TextureView?
  var occlusionStrength: Float = 1

  /// Whether the ambient term or the emission varies over the surface (an occlusion or emissive
  /// map): the shortest ways, which light a whole batch alike, do not apply.
  var hasAmbientMaps: Bool { emissiveTexture != nil || occlusionTexture != nil }
  /// Whether the metallic or the roughness varies over the surface (a map of either).
  var hasMetallicRoughnessMaps: Bool {
    metallicRoughnessTexture != nil || metallicTexture != nil || roughnessTexture != nil
  }

  /// The channel (0 red to 3 alpha) a scalar map reads by its reference's ``TextureReference/channel``:
  /// red for none or one that names no colour channel.
  static func channelIndex(_ reference: TextureReference?) -> Int {
    switch reference?.channel {
    case "g": 1
    case "b": 2
    case "a", "m": 3
    default: 0
    }
  }
  /// Which maps sample the mesh's second texture-coordinate set (glTF's `TEXCOORD_1`).
  var secondSet = SecondSetMaps()

  /// The maps that sample the second texture-coordinate set.
  struct SecondSetMaps {
    var emissive = false, occlusion = false, metallicRoughness = false, normal = false
    var any: Bool { emissive || occlusion || metallicRoughness || normal }
  }
  /// The base colour alone, whatever the lights.
  var unlit: Bool
  /// Drawn from both sides whatever its draw's culling (``Material/isDoubleSided``).
  var doubleSided: Bool

  /// The microfacet distribution's α of a perceptual `roughness`: its square, at least 0.002
  /// (a perfect mirror would reflect a point light nowhere).
  static func alpha(roughness: Float) -> Float { Swift.max(roughness * roughness, 0.002) }

  /// How a material's alpha is used, as glTF names the cases.
  enum AlphaMode {
    /// Fully opaque.
    case opaque
    /// Cut-out: a texture's alpha (or `map_d`) decides per pixel, drawn (opaque) at ≥ 0.5,
    /// discarded below; leaves, fences, hair cards.
    case mask
    /// Translucent (`d` < 1): blended "over" what is behind, drawn after all opaque surfaces,
    /// back to front.
    case blend
  }

  init(_ m: Material, texture: MipmappedTexture?, opacityTexture: MipmappedTexture?) {
    diffuse = m.diffuse
    specular = m.specular
    emissive = m.emissive
    shininess = Swift.max(m.shininess, 1)
    opacity = m.opacity
    self.texture = texture?.view
    self.opacityTexture = opacityTexture?.view
    unlit = m.isUnlit
    doubleSided = m.isDoubleSided
    normalScale = m.normalScale
    occlusionStrength = m.occlusionStrength
    metallicRoughness = m.metallicRoughness.map { ($0.metallic, Self.alpha(roughness: $0.roughness)) }
    (metallicFactor, roughnessFactor) = (
      m.metallicRoughness?.metallic ?? 0, m.metallicRoughness?.roughness ?? 1
    )
    switch m.alphaMode {
    case .opaque?: alphaMode = .opaque
    case .mask(let cutoff)?:
      alphaMode = .mask
      maskCutoff = cutoff
    case .blend?: alphaMode = .blend
    case nil:
      if m.opacity < 1 {
        alphaMode = .blend
      } else if opacityTexture != nil || texture?.hasTransparency == true {
        alphaMode = .mask
      } else {
        alphaMode = .opaque
      }
    }
  }
}
