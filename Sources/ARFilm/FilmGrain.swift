import ARImage
import ARMath
import Foundation

/// Film grain: noise that clumps like silver grains rather than varying pixel by pixel, its
/// size set by the stock's speed and the film format, strongest in the mid-tones and fading to
/// nothing in pure black and white, seeded and the same on any number of threads.
///
/// The model (documented so that it can be measured): white noise, Gaussian-filtered to the
/// grain size and scaled to unit variance, times a deviation that depends on the exposure. In
/// display-encoded units (u, 0…1) that deviation is σ(u) = `strength` · a(ISO) · ν(u), with
/// a = 0.02·√(ISO / 400) (``deviation(at:)``). ν is the exposure curve of Newson et al.'s
/// Boolean-model grain ("Realistic Film Grain Rendering", IPOL 2017): the standard deviation of
/// the covered fraction of a plane strewn with discs (a Poisson process dense enough that the
/// mean coverage is u), seen through a Gaussian filter, relative to its value at mid-grey. It
/// is 0 at black and white, 1 at mid-grey, within 10% of 2√(u(1 − u)) up to u = 0.7 and falling
/// faster in the highlights (``exposureCurve(at:)``; discs of radius 0.5 px under their 0.8 px
/// filter, a shape that hardly depends on either). The noise is added in linear light, scaled
/// by the sRGB curve's slope at the value (``linearDeviation(at:)``), so the mean light is kept
/// exactly and the encoded deviation is σ(u) to first order. The filter's 1-σ is the grain
/// size, 6 µm·√(ISO / 400) on the film, in pixels of the image spread over the format's frame
/// (36 mm across for 35 mm, 56 mm for 120), at least 0.35 px; so its autocorrelation at a
/// distance d is exp(−d² / 4σ²) (``autocorrelation(lag:width:)`` gives the sampled filter's
/// exactly). The noise is drawn and filtered once, on a seeded template that tiles, and shown
/// block by block from seeded offsets (as AV1's film-grain synthesis does), not drawn for every
/// pixel of the image.
///
/// Parameters: `iso` (25…6400, default 400), `format` (`35mm` or `120`), `strength` (0…2; 0
/// changes nothing) and `chroma` (0…1: the part of each channel's noise that is its own, as a
/// colour film's three dye layers; 0 for black-and-white grain).
public struct FilmGrain: FilmStage {
  /// The stage's key in a preset file: `grain`.
  public static let key = "grain"
  /// The stock's speed (ISO), the film format (`35mm` or `120`: it sets the grain's size on the image), the
  /// strength (1 is the model's deviation) and the share of grain that differs between channels.
  public let iso: Double, format: String, strength: Double, chroma: Double

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["iso", "format", "strength", "chroma"])
    iso = try p.number("iso", in: 25...6400, default: 400)
    format = try p.choice("format", ["35mm", "120"], default: "35mm")
    strength = try p.number("strength", in: 0...2, default: 1)
    chroma = try p.number("chroma", in: 0...1, default: 0)
  }

  /// The grain filter's 1-σ in pixels for an image `width` pixels across.
  public func grainSigma(width: Int) -> Double {
    let frameMillimetres = format == "120" ? 56.0 : 36.0
    let pixelMicrons = frameMillimetres * 1000 / Double(max(1, width))
    return max(0.35, 6 * (iso / 400).squareRoot() / pixelMicrons)
  }

  /// The grain's autocorrelation along a row or column at `lag` pixels, for an image `width`
  /// pixels across: that of the sampled Gaussian filter, Σ w(k)·w(k + lag) / Σ w(k)², which is
  /// exp(−lag² / 4σ²) once the grain is a pixel or more across.
  public func autocorrelation(lag: Int, width: Int) -> Double {
    let sigma = grainSigma(width: width)
    let radius = Int((3 * sigma).rounded(.up))
    let w = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    var (product, square) = (0.0, 0.0)
    for k in w.indices {
      square += w[k] * w[k]
      if k + lag < w.count { product += w[k] * w[k + lag] }
    }
    return product / square
  }

  /// The noise's standard deviation at display-encoded level `u` (0…1), in encoded units.
  public func deviation(at u: Double) -> Double {
    strength * 0.02 * (iso / 400).squareRoot() * Self.exposureCurve(at: u)
  }

  /// ν(u): the Boolean model's deviation at display-encoded level `u` (0…1) relative to
  /// mid-grey's, interpolated in a table of 1,024 steps.
  public static func exposureCurve(at u: Double) -> Double {
    let s = min(max(u, 0), 1) * 1024
    let i = min(Int(s), 1023), f = s - Double(i)
    return exposureTable[i] + (exposureTable[i + 1] - exposureTable[i]) * f
  }

  /// ν at 1,025 levels from 0 to 1.
  static let exposureTable: [Double] = {
    let middle = booleanVariance(0.5)
    return (0...1024).map { (booleanVariance(Double($0) / 1024) / middle).squareRoot() }
  }()

  /// The variance of the filtered coverage of the Boolean model at mean coverage `u`: discs of
  /// radius r = 0.5 px, filter σ_f = 0.8 px. The coverage's covariance at a distance d is
  /// (1 − u)²·((1 − u)^(−A(d)/πr²) − 1), A the two discs' overlap, and the filter's
  /// autocorrelation exp(−d²/4σ_f²)/4πσ_f²; the variance is their product over the plane.
  static func booleanVariance(_ u: Double) -> Double {
    guard u > 0, u < 1 else { return 0 }
    let (r, sigma, steps) = (0.5, 0.8, 400)
    var total = 0.0
    for k in 0..<steps {
      let d = (Double(k) + 0.5) / Double(steps) * 2 * r
      let overlap = 2 * r * r * acos(d / (2 * r)) - d / 2 * (4 * r * r - d * d).squareRoot()
      let covariance = (1 - u) * (1 - u) * (pow(1 - u, -overlap / (Double.pi * r * r)) - 1)
      let filter = exp(-d * d / (4 * sigma * sigma)) / (4 * Double.pi * sigma * sigma)
      total += covariance * filter * 2 * Double.pi * d * (2 * r / Double(steps))
    }
    return total
  }

  /// Near-Gaussian white noise of unit variance at index `i`: a sum of four 16-bit uniform
  /// variates (mean 2, variance 4/12) from one hash of the seed, the channel and the index.
  @inline(__always)
  static func whiteNoise(seed: UInt64, channel: UInt64, at i: Int) -> Float {
    let z = hash(seed &* 0x9E37_79B9_7F4A_7C15 ^ (channel &+ 1) &* 0xD1B5_4A32_D192_ED03, i)
    let sum = Float(z & 0xFFFF) + Float((z >> 16) & 0xFFFF) + Float((z >> 32) & 0xFFFF) + Float(z >> 48)
    return (sum / 65536 - 2) * 1.7320508
  }

  /// SplitMix64's finaliser of `key` and `i`.
  @inline(__always)
  static func hash(_ key: UInt64, _ i: Int) -> UInt64 {
    var z = key &+ UInt64(bitPattern: Int64(i)) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The grain's layout for an image: a square template of `side` pixels (a power of two) that
  /// tiles seamlessly, and blocks of `block` pixels each showing it from a seeded offset.
  struct Layout {
    let side: Int, block: Int

    init(width: Int, height: Int, sigma: Double) {
      func power(atLeast n: Int) -> Int { 1 << (Int.bitWidth - max(1, n - 1).leadingZeroBitCount) }
      // As large as the image up to 512 px, and at least 64 grain sizes across.
      side = min(2048, max(power(atLeast: min(512, max(64, width, height))), power(atLeast: Int(64 * sigma))))
      block = min(64, side / 2)
    }
  }

  /// Grain noise as a template and its blocks' offsets, after the film-grain synthesis of AV1
  /// (a small pattern of filtered noise, shown block by block from pseudo-random offsets): the
  /// noise is drawn and filtered once, on the template, not for every pixel of the image.
  ///
  /// The template is white noise (``whiteNoise(seed:channel:at:)``) filtered by the grain's
  /// Gaussian with wrap-around edges, then set to zero mean and unit variance exactly; its lanes
  /// are the shared noise and, when `chroma` is used, red, green and blue's own. At a seam
  /// between blocks neighbours are independent: one pair in `block` along a row, which lowers
  /// the autocorrelation by under 2%.
  func template(_ layout: Layout, sigma: Double, seed: UInt64, lanes: Int, threads: Int) -> [SIMD4<Float>] {
    let (side, mask) = (layout.side, layout.side - 1)
    let radius = Int((3.5 * sigma).rounded(.up))
    let weights = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
    let bands = min(side, max(1, threads) * 4)
    /// `body(rows, out)` on bands of the template's rows, in parallel, into a new template.
    func rows(_ body: @Sendable (Range<Int>, UnsafeMutablePointer<SIMD4<Float>>) -> Void) -> [SIMD4<Float>] {
      [SIMD4<Float>](unsafeUninitializedCapacity: side * side) { out, initialized in
        let target = UnsafeSendableMutablePointer(out.baseAddress!)
        forEachBand(bands, threads: threads) { band in
          body((band * side / bands)..<((band + 1) * side / bands), target.pointer)
        }
        initialized = side * side
      }
    }
    let white = rows { range, out in
      for i in (range.lowerBound * side)..<(range.upperBound * side) {
        var v = SIMD4<Float>.zero
        for lane in 0..<lanes {
          v[lane] = Self.whiteNoise(seed: seed, channel: UInt64((lane + 3) % 4), at: i)
        }
        out[i] = v
      }
    }
    let across = white.withUnsafeBufferPointer { source in
      let s = UnsafeSendablePointer(source.baseAddress!)
      return rows { range, out in
        for y in range {
          for x in 0..<side {
            var sum = SIMD4<Float>.zero
            for (k, w) in weights.enumerated() { sum += s.pointer[y * side + ((x + k - radius) & mask)] * w }
            out[y * side + x] = sum
          }
        }
      }
    }
    let filtered = across.withUnsafeBufferPointer { source in
      let s = UnsafeSendablePointer(source.baseAddress!)
      return rows { range, out in
        for y in range {
          for x in 0..<side { out[y * side + x] = .zero }
          for (k, w) in weights.enumerated() {
            let line = s.pointer + ((y + k - radius) & mask) * side
            for x in 0..<side { out[y * side + x] += line[x] * w }
          }
        }
      }
    }
    var (total, squares) = (SIMD4<Double>.zero, SIMD4<Double>.zero)
    for v in filtered {
      let d = SIMD4<Double>(v)
      total += d
      squares += d * d
    }
    let n = Double(filtered.count)
    let mean = total / n, deviation = (squares / n - mean * mean).squareRoot()
    let scale = SIMD4<Float>((1 / deviation).replacing(with: 0, where: deviation .== 0))
    let offset = SIMD4<Float>(mean)
    return filtered.map { ($0 - offset) * scale }
  }

  /// The noise's standard deviation in linear light at linear value `v` (0…1): σ at v's
  /// encoding times the sRGB curve's slope there.
  public func linearDeviation(at v: Double) -> Double {
    let u = Encoding.encode(v), e = 1e-4
    let (lo, hi) = (max(0, u - e), min(1, u + e))
    return (Encoding.decode(hi) - Encoding.decode(lo)) / (hi - lo) * deviation(at: u)
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let sigma = grainSigma(width: w)
    let layout = Layout(width: w, height: h, sigma: sigma)
    let noise = template(
      layout, sigma: sigma, seed: context.seed, lanes: chroma > 0 ? 4 : 1, threads: context.threads)
    // The shared noise and each channel's own, mixed so that each channel's has unit variance.
    let mix = SIMD4<Float>(
      Float((1 - chroma * chroma).squareRoot()), Float(chroma), Float(chroma), Float(chroma))
    // The encoded deviation carried into linear light by the sRGB curve's slope at the value
    // (first order: the grain is a few hundredths of the range), so that a value needs one table
    // look-up, not an encoding and a decoding.
    let spread = ChannelTable { linearDeviation(at: $0) }.entries
    let (side, block, mask) = (layout.side, layout.block, layout.side - 1)
    // Each channel's grain as a plane of the template: the shared noise and its own, mixed.
    let area = side * side
    var mixed = [Float](repeating: 0, count: 3 * area)
    for i in 0..<area {
      let q = noise[i] * mix
      (mixed[i], mixed[area + i], mixed[2 * area + i]) = (q.x + q.y, q.x + q.z, q.x + q.w)
    }
    let planes = mixed
    let shift = block.trailingZeroBitCount
    let key = context.seed ^ 0x4752_4149_4E5F_4F46
    return .pointwise { row, y in
      let (by, within) = (y / block, y % block)
      let blocks = (row.paddedWidth + block - 1) / block
      // Where each block's pixels start in the template: a seeded row, and a column no further
      // than a block from the template's right edge, so that a block's run never wraps.
      withUnsafeTemporaryAllocation(of: Int.self, capacity: blocks) { starts in
        for bx in 0..<blocks {
          let offsets = Self.hash(key, by &* 0x1_0000 &+ bx)
          let templateRow = (within + Int(offsets & 0xFFFF)) & mask
          starts[bx] = templateRow * side + Int((offsets >> 32) % UInt64(side - block + 1)) - bx * block
        }
        spread.withUnsafeBufferPointer { table in
          planes.withUnsafeBufferPointer { grain in
            let (t, red) = (table.baseAddress!, grain.baseAddress!)
            let (green, blue) = (red + area, red + 2 * area)
            for x in FourPixels.columns(row) {
              var four = FourPixels(row, x)
              let i = starts[x >> shift] + x
              four.red = LaneMath.atLeastZero(
                four.red + ChannelTable.look(four: four.red, in: t) * loadFour(red, i))
              four.green = LaneMath.atLeastZero(
                four.green + ChannelTable.look(four: four.green, in: t) * loadFour(green, i))
              four.blue = LaneMath.atLeastZero(
                four.blue + ChannelTable.look(four: four.blue, in: t) * loadFour(blue, i))
              four.store(row, x)
            }
          }
        }
      }
    }
  }
}
