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
    if m.opacity < 1 {
      alphaMode = .blend
    } else if opacityTexture != nil || texture?.hasTransparency == true {
      alphaMode = .mask
    } else {
      alphaMode = .opaque
    }
  }
}
