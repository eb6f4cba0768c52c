import ARMesh
import ARMath

/// How fragments get their colour.
public enum ShadingMode: Sendable {
  /// Every covered pixel white, nothing else: coverage tests and GL cross-checks.
  case unlit
  /// Grey `round(255·max(0, n·l))` with `n` the flat face normal (counter-clockwise winding) and
  /// `l` the unit vector given (pointing towards the light), in world space; no sRGB encoding.
  /// Meant for pixel-exact comparison with a plain OpenGL render.
  case lambert(towardsLight: SIMD3<Float>)
  /// Blinn–Phong in linear light with materials, textures and vertex colours, sRGB output.
  case lit(Lighting)
}

/// The lights of a lit scene. Colours are linear RGB times intensity.
public struct Lighting: Sendable {
  /// Light arriving from everywhere.
  public var ambient: SIMD3<Float>
  /// Directional lights: `direction` is the way the light travels (from the light into the
  /// scene), world frame.
  public var directional: [(direction: SIMD3<Float>, color: SIMD3<Float>)]
  /// Point lights at world positions (metres), with inverse-square falloff.
  public var point: [(position: SIMD3<Float>, color: SIMD3<Float>)]

  public init(
    ambient: SIMD3<Float> = SIMD3(repeating: 0.2),
    directional: [(direction: SIMD3<Float>, color: SIMD3<Float>)] = [
      (SIMD3(-0.4, -1, -0.3), SIMD3(repeating: 1))
    ],
    point: [(position: SIMD3<Float>, color: SIMD3<Float>)] = []
  ) {
    self.ambient = ambient
    self.directional = directional
    self.point = point
  }
}

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
