import ARAssets
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
  var texture: LinearTexture?

  init(_ m: Material, texture: LinearTexture?) {
    diffuse = m.diffuse
    specular = m.specular
    emissive = m.emissive
    shininess = Swift.max(m.shininess, 1)
    opacity = m.opacity
    self.texture = texture
  }
}

/// A texture in linear light, sampled bilinearly with OBJ's texture coordinates (v up).
final class LinearTexture: @unchecked Sendable {
  let width: Int, height: Int
  let texels: [SIMD4<Float>]
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>

  init(_ image: RGBA8Image, reference: TextureReference) {
    width = image.width
    height = image.height
    texels = image.linear.pixels
    clamp = reference.clamp
    scale = SIMD2(reference.scale.x, reference.scale.y)
    offset = SIMD2(reference.offset.x, reference.offset.y)
  }

  /// The bilinearly filtered texel at `uv` (texel centres at `(i + 0.5) / width`).
  @inline(__always)
  func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    let t = uv * scale + offset
    let x = t.x * Float(width) - 0.5, y = (1 - t.y) * Float(height) - 0.5
    let fx = x.rounded(.down), fy = y.rounded(.down)
    let ax = x - fx, ay = y - fy
    let x0 = Int(fx), y0 = Int(fy)
    let c00 = texel(x0, y0), c10 = texel(x0 + 1, y0), c01 = texel(x0, y0 + 1), c11 = texel(x0 + 1, y0 + 1)
    let top = c00 + (c10 - c00) * ax, bottom = c01 + (c11 - c01) * ax
    return top + (bottom - top) * ay
  }

  @inline(__always)
  func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
    let ix: Int, iy: Int
    if clamp {
      ix = Swift.min(Swift.max(x, 0), width - 1)
      iy = Swift.min(Swift.max(y, 0), height - 1)
    } else {
      ix = ((x % width) + width) % width
      iy = ((y % height) + height) % height
    }
    return texels[iy * width + ix]
  }
}
