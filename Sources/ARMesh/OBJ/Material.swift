/// A surface material as MTL describes it. Colours are linear RGB as written in the file (MTL
/// colours are conventionally treated as linear reflectances).
public struct Material: Hashable, Sendable {
  /// The `newmtl` name.
  public var name: String
  /// `Ka`: ambient reflectance.
  public var ambient: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Kd`: diffuse reflectance (base colour).
  public var diffuse: SIMD3<Float> = SIMD3(0.8, 0.8, 0.8)
  /// `Ks`: specular reflectance.
  public var specular: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Ke`: emission.
  public var emissive: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Ns`: Phong specular exponent, 0…1000.
  public var shininess: Float = 10
  /// `d` (or `1 − Tr`): opacity, 1 = opaque.
  public var opacity: Float = 1
  /// `Ni`: index of refraction.
  public var refractionIndex: Float = 1
  /// `illum`: the illumination model number (0 colour only, 1 diffuse, 2 diffuse + specular, …).
  public var illuminationModel: Int = 2
  /// `map_Kd`: diffuse (base colour) texture.
  public var diffuseTexture: TextureReference? = nil
  /// `map_d`: opacity texture.
  public var opacityTexture: TextureReference? = nil
  /// `map_Bump`, `bump` or `norm`: bump or normal map.
  public var bumpTexture: TextureReference? = nil
  /// `map_Ks`: specular texture.
  public var specularTexture: TextureReference? = nil
  /// `map_Ke` (glTF's `emissiveTexture`, `UsdPreviewSurface`'s `emissiveColor` texture):
  /// emission as an sRGB colour image, multiplying ``emissive``.
  public var emissiveTexture: TextureReference? = nil
  /// glTF's tangent-space normal map (linear data: +X along increasing u, +Y along increasing v,
  /// that is towards the image's top, +Z out of the surface), for the metallic-roughness model.
  public var normalTexture: TextureReference? = nil
  /// The normal map's scale on X and Y (glTF's `normalTexture.scale`).
  public var normalScale: Float = 1
  /// glTF's ambient-occlusion map (linear data, red channel): how much of the ambient light
  /// reaches the surface.
  public var occlusionTexture: TextureReference? = nil
  /// How far the occlusion map darkens, 0 (not at all) to 1 (fully; glTF's
  /// `occlusionTexture.strength`).
  public var occlusionStrength: Float = 1
  /// glTF's metallic-roughness model (and `UsdPreviewSurface`'s, mapped onto it): when set, the
  /// renderer lights the surface with the BRDF of the glTF specification's Appendix B, the
  /// diffuse colour being the base colour; nil for MTL's Blinn-Phong (`specular`, `shininess`).
  public var metallicRoughness: MetallicRoughness? = nil
  /// glTF's metallic-roughness texture (linear data: roughness in green, metallic in blue),
  /// multiplying ``metallicRoughness``'s factors.
  public var metallicRoughnessTexture: TextureReference? = nil
  /// A metallic map of its own (linear data, read from the reference's ``TextureReference/channel``,
  /// red without one), multiplying ``metallicRoughness``'s metallic factor: `UsdPreviewSurface`'s
  /// `metallic` fed by a texture of its own, as Reality Converter and Apple's gallery write it.
  /// Where it is set, it is used in place of ``metallicRoughnessTexture``'s blue.
  public var metallicTexture: TextureReference? = nil
  /// A roughness map of its own (linear data, from the reference's channel, red without one),
  /// multiplying the roughness factor; used in place of ``metallicRoughnessTexture``'s green.
  public var roughnessTexture: TextureReference? = nil
  /// How the base colour's alpha is used, when the format says (glTF's `alphaMode`); nil to
  /// infer it as MTL materials are (blend below full `opacity`, mask where a texture has
  /// transparent texels).
  public var alphaMode: AlphaMode? = nil
  /// Drawn in its base colour whatever the lights (glTF's `KHR_materials_unlit`).
  public var isUnlit = false
  /// Drawn from both sides even where its draw culls back faces (glTF's `doubleSided`, a USD
  /// gprim's `doubleSided`), lit from the side it is seen from.
  public var isDoubleSided = false

  /// Metallic and roughness factors, each from 0 to 1.
  public struct MetallicRoughness: Hashable, Sendable {
    /// 1 for a metal (the base colour tints its reflection), 0 for a dielectric.
    public var metallic: Float
    /// Perceptual roughness: the microfacet distribution's α is its square.
    public var roughness: Float

    /// A surface of this metalness and roughness (each 0…1).
    public init(metallic: Float, roughness: Float) {
      self.metallic = metallic
      self.roughness = roughness
    }
  }

  /// glTF's alpha modes.
  public enum AlphaMode: Hashable, Sendable {
    /// Alpha ignored: fully opaque.
    case opaque
    /// Drawn opaque where alpha is at least `cutoff`, not at all below it.
    case mask(cutoff: Float)
    /// Blended over what is behind.
    case blend
  }

  /// A material with MTL's defaults and the given name.
  public init(name: String) { self.name = name }

  /// The material used where none is given, or as the lenient fallback for a missing one.
  public static let fallback = Material(name: "default")
}
