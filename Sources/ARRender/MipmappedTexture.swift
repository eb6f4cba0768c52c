import ARImage
import ARMesh

/// A texture in linear light with its mip chain, sampled trilinearly with OBJ's texture
/// coordinates (v up; texel centres at `(i + 0.5) / width`).
///
/// Minified textures (a wall far away, a floor at a grazing angle) would alias with bilinear
/// filtering alone; each level halves the previous one with a 2×2 box filter in linear light,
/// and the sampler blends the two levels around the pixel's footprint.
///
/// Texels are stored the way the filter reads them, as GPUs do: linear light in 15-bit fixed
/// point (`round(value · 32767)`; the darkest 8-bit sRGB step is still ten units), 8 bytes a
/// texel. One 16-byte load reads a texel and its right-hand neighbour; the top row's and the
/// bottom row's, interleaved, give two vectors of `(top, bottom)` pairs, left texel and right,
/// and two multiply-adds of 16-bit pairs the four taps of all four channels. (Entries that held
/// each texel with its neighbour already paired took one load a row and no interleaving, but
/// twice the memory: 16 bytes a texel, 256 MB for a 4096² base level.)
/// A border of one texel on every side, copied as the wrap mode says (the opposite edge for
/// repeat, the same edge for clamp), means the filter never wraps an index itself, for any size.
final class MipmappedTexture: @unchecked Sendable {
  /// Where one level's entries lie in ``entries``.
  struct Level {
    let width: Int, height: Int
    /// `(width, height)` as floats.
    let size: SIMD2<Float>
    /// The index of texel (−1, −1), the border's corner.
    let base: Int32
    /// Texels per row: `width + 2` (x from −1 to `width`).
    let stride: Int32
    /// How this level wraps coordinates in integers, for textures that can (see
    /// ``TextureView/wrapsByMask``).
    let wrap: IntegerWrap
  }

  /// Every level's entries, one after another, in memory this texture owns: the sampler runs
  /// per pixel on several threads, and an array reference there would be retained and released
  /// atomically on every sample.
  private let entries: UnsafeMutableBufferPointer<SIMD4<Int16>>
  private let levelBuffer: UnsafeMutableBufferPointer<Level>
  /// Whether any texel is not fully opaque (the material then cuts out or blends).
  let hasTransparency: Bool
  let clamp: Bool
  let scale: SIMD2<Float>, offset: SIMD2<Float>

  /// Scale of the stored fixed-point values.
  static let unit: Float = 32767
  /// The largest side accepted, in texels, as GPUs commonly limit textures: the sampler's row
  /// indices and strides then fit 15 bits, and its entry indices 32.
  static let maximumSide = 16384

  /// Prepares the texture `reference` names from its decoded image in `images` (by path).
  ///
  /// - Throws: ``RenderError/invalidTexture(path:reason:)`` when `images` has no image for it,
  ///   or the image is larger than ``maximumSide`` texels a side.
  /// With `isData`, the texels are numbers, not colours (a metallic-roughness map): scaled to
  /// [0, 1] without sRGB decoding.
  convenience init(_ reference: TextureReference, images: [String: RGBA8Image], isData: Bool = false)
    throws(RenderError)
  {
    guard let image = images[reference.path] else {
      throw .invalidTexture(path: reference.path, reason: "no decoded image was given for this texture")
    }
    // A mirrored direction is stored twice as long (see ``withMirrorImages(_:u:v:)``).
    let mirrored = reference.clamp ? (u: false, v: false) : reference.mirrored
    let limit = (
      u: mirrored.u ? Self.maximumSide / 2 : Self.maximumSide,
      v: mirrored.v ? Self.maximumSide / 2 : Self.maximumSide
    )
    guard image.width <= limit.u, image.height <= limit.v else {
      throw .invalidTexture(
        path: reference.path,
        reason: mirrored.u || mirrored.v
          ? "\(image.width)×\(image.height) is larger than \(limit.u)×\(limit.v) texels (a mirrored direction is stored twice, up to \(Self.maximumSide) texels)"
          : "\(image.width)×\(image.height) is larger than \(Self.maximumSide) texels a side")
    }
    self.init(image, reference: reference, isData: isData)
  }

  init(_ image: RGBA8Image, reference: TextureReference, isData: Bool = false) {
    hasTransparency = image.pixels.contains { $0.w < 255 }
    clamp = reference.clamp
    var scale = SIMD2(reference.scale.x, reference.scale.y)
    var offset = SIMD2(reference.offset.x, reference.offset.y)
    var image = image
    // A mirrored repeat is a plain repeat of the image beside its mirror image, at half the
    // frequency: the sampler's wrap and filters stay as they are.
    let mirrored = clamp ? (u: false, v: false) : reference.mirrored
    if mirrored.u || mirrored.v {
      image = Self.withMirrorImages(image, u: mirrored.u, v: mirrored.v)
      let halving = SIMD2<Float>(mirrored.u ? 0.5 : 1, mirrored.v ? 0.5 : 1)
      (scale, offset) = (scale * halving, offset * halving)
    }
    (self.scale, self.offset) = (scale, offset)
    let texels = isData ? image.pixels.map { SIMD4<Float>($0) / 255 } : image.linear.pixels
    var chain = [(texels: texels, width: image.width, height: image.height)]
    while chain.last!.width > 1 || chain.last!.height > 1 {
      chain.append(Self.halved(chain.last!.texels, width: chain.last!.width, height: chain.last!.height))
    }
    var levels: [Level] = []
    var count = 0
    for level in chain {
      let size = SIMD2(Float(level.width), Float(level.height))
      levels.append(
        Level(
          width: level.width, height: level.height, size: size, base: Int32(count),
          stride: Int32(level.width + 2), wrap: IntegerWrap(size: size, scale: scale, offset: offset)))
      count += (level.width + 2) * (level.height + 2)
    }
    entries = .allocate(capacity: count)
    for (level, texels) in zip(levels, chain.map(\.texels)) {
      Self.fillEntries(level, texels, clamp: clamp, into: entries.baseAddress! + Int(level.base))
    }
    levelBuffer = .allocate(capacity: levels.count)
    _ = levelBuffer.initialize(from: levels)
  }

  deinit {
    entries.deallocate()
    levelBuffer.deallocate()
  }

  /// `image` beside its mirror image along u (to its right) and along v (above it: v runs up,
  /// rows down), so that repeating the result at half the frequency mirrors every other tile.
  static func withMirrorImages(_ image: RGBA8Image, u: Bool, v: Bool) -> RGBA8Image {
    let (w, h) = (image.width, image.height)
    let (width, height) = (u ? 2 * w : w, v ? 2 * h : h)
    var pixels = [SIMD4<UInt8>](repeating: .zero, count: width * height)
    for y in 0..<height {
      // Rows: the mirror image on top when mirrored along v, the image itself below.
      let sourceY = v ? (y < h ? h - 1 - y : y - h) : y
      for x in 0..<width {
        let sourceX = x < w ? x : 2 * w - 1 - x
        pixels[y * width + x] = image.pixels[sourceY * w + sourceX]
      }
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// The next level: each texel the mean of a 2×2 block, clamped at the edge of odd sizes.
  private static func halved(_ level: [SIMD4<Float>], width: Int, height: Int) -> (
    texels: [SIMD4<Float>], width: Int, height: Int
  ) {
    let w = (width + 1) / 2, h = (height + 1) / 2
    var next = [SIMD4<Float>](repeating: .zero, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        let x0 = 2 * x, y0 = 2 * y, x1 = Swift.min(x0 + 1, width - 1), y1 = Swift.min(y0 + 1, height - 1)
        let sum =
          level[y0 * width + x0] + level[y0 * width + x1] + level[y1 * width + x0] + level[y1 * width + x1]
        next[y * w + x] = sum * 0.25
      }
    }
    return (next, w, h)
  }

  /// Writes `level`'s entries, border included (see the type's description), from `texels`.
  private static func fillEntries(
    _ level: Level, _ texels: [SIMD4<Float>], clamp: Bool, into out: UnsafeMutablePointer<SIMD4<Int16>>
  ) {
    let (w, h) = (level.width, level.height)
    func wrapped(_ i: Int, _ n: Int) -> Int { clamp ? Swift.min(Swift.max(i, 0), n - 1) : (i + n) % n }
    func fixed(_ c: SIMD4<Float>) -> SIMD4<Int16> {
      func channel(_ v: Float) -> Int16 { Int16((Swift.min(Swift.max(v, 0), 1) * unit).rounded()) }
      return SIMD4(channel(c.x), channel(c.y), channel(c.z), channel(c.w))
    }
    var index = 0
    for y in -1...h {
      let row = wrapped(y, h) * w
      for x in -1...w {
        out[index] = fixed(texels[row + wrapped(x, w)])
        index += 1
      }
    }
  }

  /// A view for sampling: plain values and pointers, so the per-pixel path touches no
  /// reference count. Valid while this texture lives.
  var view: TextureView {
    let base = levelBuffer[0]
    let powerOfTwo = base.width & (base.width - 1) == 0 && base.height & (base.height - 1) == 0
    return TextureView(
      entries: UnsafePointer(entries.baseAddress!), levels: UnsafeBufferPointer(levelBuffer), clamp: clamp,
      scale: scale, offset: offset,
      wrapsByMask: !clamp && powerOfTwo)
  }
}

/// Four samples' colours (linear light, straight alpha), left to right.
typealias FourColors = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
