import ARAssets
import RealModule

/// A texture in linear light with its mip chain, sampled trilinearly with OBJ's texture
/// coordinates (v up; texel centres at `(i + 0.5) / width`).
///
/// Minified textures (a wall far away, a floor at a grazing angle) would alias with bilinear
/// filtering alone; each level halves the previous one with a 2×2 box filter in linear light,
/// and the sampler blends the two levels around the pixel's footprint.
final class MipmappedTexture: @unchecked Sendable {
  struct Level {
    let width: Int, height: Int
    let texels: [SIMD4<Float>]
  }

  let levels: [Level]
  /// Whether any texel is not fully opaque (the material then cuts out or blends).
  let hasTransparency: Bool
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>

  init(_ image: RGBA8Image, reference: TextureReference) {
    hasTransparency = image.pixels.contains { $0.w < 255 }
    var levels = [Level(width: image.width, height: image.height, texels: image.linear.pixels)]
    while let last = levels.last, last.width > 1 || last.height > 1 {
      let w = (last.width + 1) / 2, h = (last.height + 1) / 2
      var texels = [SIMD4<Float>](repeating: .zero, count: w * h)
      for y in 0..<h {
        for x in 0..<w {
          // A 2×2 box, clamped at the edge of odd-sized levels.
          let x0 = 2 * x, y0 = 2 * y, x1 = Swift.min(x0 + 1, last.width - 1),
            y1 = Swift.min(y0 + 1, last.height - 1)
          let sum =
            last.texels[y0 * last.width + x0] + last.texels[y0 * last.width + x1]
            + last.texels[y1 * last.width + x0] + last.texels[y1 * last.width + x1]
          texels[y * w + x] = sum * 0.25
        }
      }
      levels.append(Level(width: w, height: h, texels: texels))
    }
    self.levels = levels
    clamp = reference.clamp
    scale = SIMD2(reference.scale.x, reference.scale.y)
    offset = SIMD2(reference.offset.x, reference.offset.y)
  }

  /// The trilinearly filtered colour at `uv`, for a pixel whose neighbours to the right and
  /// below sample `uvX` and `uvY` (their differences are the footprint).
  @inline(__always)
  func sample(_ uv: SIMD2<Float>, _ uvX: SIMD2<Float>, _ uvY: SIMD2<Float>) -> SIMD4<Float> {
    let size = SIMD2(Float(levels[0].width), Float(levels[0].height)) * scale
    let dx = (uvX - uv) * size, dy = (uvY - uv) * size
    let footprint = Swift.max((dx * dx).sum(), (dy * dy).sum())
    // log2 of the footprint in texels: ½·log2 of its square.
    let lod = footprint > 1 ? 0.5 * Float.log2(footprint) : 0
    guard lod.isFinite, lod > 0 else { return sample(uv, level: 0) }
    let top = Float(levels.count - 1)
    let l = Swift.min(lod, top)
    let l0 = Int(l), t = l - Float(l0)
    let a = sample(uv, level: l0)
    return t > 0 && l0 + 1 < levels.count ? a + (sample(uv, level: l0 + 1) - a) * t : a
  }

  /// The bilinearly filtered colour of one level at `uv`.
  @inline(__always)
  func sample(_ uv: SIMD2<Float>, level index: Int) -> SIMD4<Float> {
    let level = levels[index]
    let t = uv * scale + offset
    let x = t.x * Float(level.width) - 0.5, y = (1 - t.y) * Float(level.height) - 0.5
    let fx = x.rounded(.down), fy = y.rounded(.down)
    let ax = x - fx, ay = y - fy
    guard let x0 = Int(exactly: fx), let y0 = Int(exactly: fy) else { return level.texels[0] }
    let c00 = texel(level, x0, y0), c10 = texel(level, x0 + 1, y0)
    let c01 = texel(level, x0, y0 + 1), c11 = texel(level, x0 + 1, y0 + 1)
    let top = c00 + (c10 - c00) * ax, bottom = c01 + (c11 - c01) * ax
    return top + (bottom - top) * ay
  }

  @inline(__always)
  func texel(_ level: Level, _ x: Int, _ y: Int) -> SIMD4<Float> {
    let ix: Int, iy: Int
    if clamp {
      ix = Swift.min(Swift.max(x, 0), level.width - 1)
      iy = Swift.min(Swift.max(y, 0), level.height - 1)
    } else {
      ix = ((x % level.width) + level.width) % level.width
      iy = ((y % level.height) + level.height) % level.height
    }
    return level.texels[iy * level.width + ix]
  }
}
