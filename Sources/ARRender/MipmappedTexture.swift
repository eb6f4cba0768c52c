import ARAssets
import RealModule

/// A texture in linear light with its mip chain, sampled trilinearly with OBJ's texture
/// coordinates (v up; texel centres at `(i + 0.5) / width`).
///
/// Minified textures (a wall far away, a floor at a grazing angle) would alias with bilinear
/// filtering alone; each level halves the previous one with a 2×2 box filter in linear light,
/// and the sampler blends the two levels around the pixel's footprint.
final class MipmappedTexture: @unchecked Sendable {
  /// One level's texels live in memory this texture owns, reached through a plain pointer: the
  /// sampler runs per pixel on several threads, and copying an array reference there would
  /// retain and release it atomically on every sample, from every thread.
  struct Level {
    let width: Int, height: Int
    let texels: UnsafeMutablePointer<SIMD4<Float>>
    /// Both sides are powers of two: repeating wraps texel indices with a mask.
    let isPowerOfTwo: Bool
    /// `(width, height)` as floats.
    let size: SIMD2<Float>

    init(width: Int, height: Int, texels: UnsafeMutablePointer<SIMD4<Float>>) {
      self.width = width
      self.height = height
      self.texels = texels
      isPowerOfTwo = width & (width - 1) == 0 && height & (height - 1) == 0
      size = SIMD2(Float(width), Float(height))
    }
  }

  let levels: [Level]
  /// The levels as a plain buffer, for the same reason.
  private let levelBuffer: UnsafeMutableBufferPointer<Level>
  /// Whether any texel is not fully opaque (the material then cuts out or blends).
  let hasTransparency: Bool
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>

  init(_ image: RGBA8Image, reference: TextureReference) {
    hasTransparency = image.pixels.contains { $0.w < 255 }
    func owned(_ texels: [SIMD4<Float>]) -> UnsafeMutablePointer<SIMD4<Float>> {
      let p = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: texels.count)
      p.initialize(from: texels, count: texels.count)
      return p
    }
    var level = image.linear.pixels, (width, height) = (image.width, image.height)
    var levels = [Level(width: width, height: height, texels: owned(level))]
    while width > 1 || height > 1 {
      let w = (width + 1) / 2, h = (height + 1) / 2
      var next = [SIMD4<Float>](repeating: .zero, count: w * h)
      for y in 0..<h {
        for x in 0..<w {
          // A 2×2 box, clamped at the edge of odd-sized levels.
          let x0 = 2 * x, y0 = 2 * y, x1 = Swift.min(x0 + 1, width - 1), y1 = Swift.min(y0 + 1, height - 1)
          let sum =
            level[y0 * width + x0] + level[y0 * width + x1] + level[y1 * width + x0] + level[y1 * width + x1]
          next[y * w + x] = sum * 0.25
        }
      }
      (level, width, height) = (next, w, h)
      levels.append(Level(width: w, height: h, texels: owned(level)))
    }
    self.levels = levels
    levelBuffer = .allocate(capacity: levels.count)
    _ = levelBuffer.initialize(from: levels)
    clamp = reference.clamp
    scale = SIMD2(reference.scale.x, reference.scale.y)
    offset = SIMD2(reference.offset.x, reference.offset.y)
  }

  deinit {
    for level in levels { level.texels.deallocate() }
    levelBuffer.deallocate()
  }

  /// A view for sampling: plain values and pointers, so the per-pixel path touches no
  /// reference count. Valid while this texture lives.
  var view: TextureView {
    TextureView(levelBuffer: UnsafeBufferPointer(levelBuffer), clamp: clamp, scale: scale, offset: offset)
  }
}

/// Samples a ``MipmappedTexture`` (see there) without reference counting.
struct TextureView {
  let levelBuffer: UnsafeBufferPointer<MipmappedTexture.Level>
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>

  /// The base level's size in texels times the coordinate scale: texels per unit of uv.
  @inline(__always) var texelsPerUV: SIMD2<Float> { levelBuffer[0].size * scale }

  /// The trilinearly filtered colour at `uv` for mip level `level` (fractional; 0 or below is
  /// the base level), as ``SpanSamples/fillTextureCoordinates(us:vs:size:count:)`` finds it.
  @inline(__always)
  func sample(_ uv: SIMD2<Float>, level: Float) -> SIMD4<Float> {
    guard level > 0 else { return bilinear(uv, level: 0) }
    let l = Swift.min(level, Float(levelBuffer.count &- 1))
    let l0 = Int(l), t = l - Float(l0)
    let a = bilinear(uv, level: l0)
    return t > 0 ? a + (bilinear(uv, level: l0 &+ 1) - a) * t : a
  }

  /// The trilinearly filtered colour at `uv`, for a sample whose coordinates change by `dx`
  /// per sample to the right and `dy` per sample down (the footprint's sides, in uv units).
  @inline(__always)
  func sample(_ uv: SIMD2<Float>, _ dx: SIMD2<Float>, _ dy: SIMD2<Float>) -> SIMD4<Float> {
    let sx = dx * texelsPerUV, sy = dy * texelsPerUV
    let footprint = Swift.max((sx * sx).sum(), (sy * sy).sum())
    // As SpanSamples finds the level; NaN takes level 0.
    guard footprint > 1 else { return bilinear(uv, level: 0) }
    return sample(uv, level: 0.5 * roughLog2(footprint))
  }

  /// The bilinearly filtered colour of one level at `uv`.
  ///
  /// The usual texture repeats and has power-of-two sides: its position goes to fixed point with
  /// 8 fractional bits (the filter weights GPUs use), one conversion an axis, and the texel
  /// indices wrap with a mask. This path was half the lit shader's instructions when it went
  /// through floors, checked conversions and branches per coordinate (kept below for the rest).
  @inline(__always)
  func bilinear(_ uv: SIMD2<Float>, level index: Int) -> SIMD4<Float> {
    let level = levelBuffer[index]
    let t = uv * scale + offset
    // v up in OBJ, rows down in memory; texel centres at +0.5. Scaling by 256 is exact.
    let x = (t.x * level.size.x - 0.5) * 256, y = ((1 - t.y) * level.size.y - 0.5) * 256
    guard !clamp, level.isPowerOfTwo, Swift.abs(x) < 0x1p30, Swift.abs(y) < 0x1p30 else {
      return sampleAnyWrap(uv, level: level)
    }
    // Truncation, then one step down for negative fractions: the floor in fixed point.
    var xi = Int32(x), yi = Int32(y)
    if Float(xi) > x { xi &-= 1 }
    if Float(yi) > y { yi &-= 1 }
    let (wMask, hMask) = (level.width &- 1, level.height &- 1)
    let x0 = Int(xi >> 8) & wMask, y0 = Int(yi >> 8) & hMask
    let x1 = (x0 &+ 1) & wMask, y1 = (y0 &+ 1) & hMask
    let ax = Float(xi & 255) * (1 / 256), ay = Float(yi & 255) * (1 / 256)
    let row0 = level.texels + y0 &* level.width, row1 = level.texels + y1 &* level.width
    let c00 = row0[x0], c10 = row0[x1], c01 = row1[x0], c11 = row1[x1]
    let top = c00 + (c10 - c00) * ax, bottom = c01 + (c11 - c01) * ax
    return top + (bottom - top) * ay
  }

  /// ``bilinear(_:level:)`` for clamped textures, other sizes and coordinates far out: the
  /// coordinate is wrapped before it becomes a texel index, so the four texels need no integer
  /// division.
  func sampleAnyWrap(_ uv: SIMD2<Float>, level: MipmappedTexture.Level) -> SIMD4<Float> {
    var t = uv * scale + offset
    t.y = 1 - t.y  // v up in OBJ, rows down in memory
    if clamp {
      t = SIMD2(Swift.min(Swift.max(t.x, 0), 1), Swift.min(Swift.max(t.y, 0), 1))
    } else {
      t -= SIMD2(floorFast(t.x), floorFast(t.y))  // repeat: the fractional part, in [0, 1)
    }
    let (w, h) = (level.width, level.height)
    let x = t.x * Float(w) - 0.5, y = t.y * Float(h) - 0.5
    let fx = floorFast(x), fy = floorFast(y)
    guard fx.isFinite, fy.isFinite else { return level.texels[0] }
    let ax = x - fx, ay = y - fy
    // x0 in −1…w−1: the neighbours across the edge wrap (repeat) or stick (clamp).
    var x0 = Int(fx), y0 = Int(fy), x1 = x0 + 1, y1 = y0 + 1
    if clamp {
      x0 = Swift.max(x0, 0)
      y0 = Swift.max(y0, 0)
      x1 = Swift.min(x1, w - 1)
      y1 = Swift.min(y1, h - 1)
    } else {
      if x0 < 0 { x0 = w - 1 }
      if y0 < 0 { y0 = h - 1 }
      if x1 >= w { x1 = 0 }
      if y1 >= h { y1 = 0 }
    }
    let p = level.texels
    let c00 = p[y0 * w + x0], c10 = p[y0 * w + x1], c01 = p[y1 * w + x0], c11 = p[y1 * w + x1]
    let top = c00 + (c10 - c00) * ax, bottom = c01 + (c11 - c01) * ax
    return top + (bottom - top) * ay
  }
}

/// `floor(x)` without a library call: the portable (SSE2) build has no rounding instruction, so
/// `rounded(.down)` calls `floorf`, eight times per trilinear sample. Values of 2²² and more
/// are whole already (and NaN passes through).
@inline(__always)
func floorFast(_ x: Float) -> Float {
  guard Swift.abs(x) < 4_194_304 else { return x }
  let truncated = Float(Int32(x))
  return truncated > x ? truncated - 1 : truncated
}
