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
/// exactly).
///
/// Parameters: `iso` (25…6400, default 400), `format` (`35mm` or `120`), `strength` (0…2; 0
/// changes nothing) and `chroma` (0…1: the part of each channel's noise that is its own, as a
/// colour film's three dye layers; 0 for black-and-white grain).
public struct FilmGrain: PointwiseFilmStage {
  public static let key = "grain"
  public let iso: Double, format: String, strength: Double, chroma: Double

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

  /// Unit-variance grain noise for channel `channel` (3 for the shared one): hashed white noise
  /// (a sum of four uniform variates, near-Gaussian and made Gaussian by the filter) filtered by
  /// the grain's Gaussian.
  func noise(width: Int, height: Int, seed: UInt64, channel: UInt64, threads: Int) -> [Float] {
    noise(width: width, height: height, threads: threads) {
      Self.whiteNoise(seed: seed, channel: channel, at: $0)
    }
  }

  /// Four planes of ``noise(width:height:seed:channel:threads:)`` at once, as the lanes of one
  /// (channels 3, 0, 1, 2: the shared one, then red, green and blue's own), filtered together.
  func noise4(width: Int, height: Int, seed: UInt64, threads: Int) -> [SIMD4<Float>] {
    noise(width: width, height: height, threads: threads) { i in
      SIMD4(
        Self.whiteNoise(seed: seed, channel: 3, at: i), Self.whiteNoise(seed: seed, channel: 0, at: i),
        Self.whiteNoise(seed: seed, channel: 1, at: i), Self.whiteNoise(seed: seed, channel: 2, at: i))
    }
  }

  /// Near-Gaussian white noise of unit variance at pixel `i`: a sum of four 16-bit uniform
  /// variates (mean 2, variance 4/12) from one hash of the seed, the channel and the pixel.
  @inline(__always)
  static func whiteNoise(seed: UInt64, channel: UInt64, at i: Int) -> Float {
    let key = seed &* 0x9E37_79B9_7F4A_7C15 ^ (channel &+ 1) &* 0xD1B5_4A32_D192_ED03
    var z = key &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    let sum = Float(z & 0xFFFF) + Float((z >> 16) & 0xFFFF) + Float((z >> 32) & 0xFFFF) + Float(z >> 48)
    return (sum / 65536 - 2) * 1.7320508
  }

  /// White noise from `draw`, scaled so that after the grain's filter it has unit variance, then
  /// filtered.
  func noise<S: BlurSample>(width: Int, height: Int, threads: Int, _ draw: @Sendable (Int) -> S) -> [S] {
    let sigma = grainSigma(width: width)
    // The filter's gain on white noise's variance is Σw² over its 2D kernel: the kernel is the
    // filter's response to a single bright pixel, far from any edge.
    let side = 2 * Int((4 * sigma).rounded(.up)) + 7
    var delta = [Float](repeating: 0, count: side * side)
    delta[side * side / 2] = 1
    let kernel = GaussianBlur.blur(delta, width: side, height: side, sigma: sigma, threads: 1)
    let scale = Float(1 / kernel.map { Double($0) * Double($0) }.reduce(0, +).squareRoot())
    let count = width * height
    let white = [S](unsafeUninitializedCapacity: count) { buffer, initialized in
      let out = UnsafeSendableMutablePointer(buffer.baseAddress!)
      let bands = max(1, threads) * 4
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        for i in (band * count / bands)..<((band + 1) * count / bands) { out.pointer[i] = draw(i) * scale }
      }
      initialized = count
    }
    return GaussianBlur.blur(white, width: width, height: height, sigma: sigma, threads: threads)
  }

  /// The noise's standard deviation in linear light at linear value `v` (0…1): σ at v's
  /// encoding times the sRGB curve's slope there.
  public func linearDeviation(at v: Double) -> Double {
    let u = Encoding.encode(v), e = 1e-4
    let (lo, hi) = (max(0, u - e), min(1, u + e))
    return (Encoding.decode(hi) - Encoding.decode(lo)) / (hi - lo) * deviation(at: u)
  }

  public func kernel(width w: Int, height h: Int, context: FilmContext) -> FilmKernel? {
    guard strength > 0 else { return nil }
    let (mix, independent) = (Float((1 - chroma * chroma).squareRoot()), Float(chroma))
    // The encoded deviation carried into linear light by the sRGB curve's slope at the value
    // (first order: the grain is a few hundredths of the range), so that a value needs one table
    // look-up, not an encoding and a decoding.
    let spread = ChannelTable { linearDeviation(at: $0) }.entries
    @Sendable func grained(_ p: SIMD4<Float>, _ grain: SIMD3<Float>, _ t: UnsafePointer<Float>) -> SIMD4<
      Float
    > {
      let deviation = SIMD3(
        ChannelTable.look(p.x, in: t), ChannelTable.look(p.y, in: t), ChannelTable.look(p.z, in: t))
      let moved = SIMD3(p.x, p.y, p.z) + deviation * grain
      return SIMD4(moved.replacing(with: 0, where: moved .< 0), p.w)
    }
    guard chroma > 0 else {
      let shared = noise(width: w, height: h, seed: context.seed, channel: 3, threads: context.threads)
      return { buffer, rows in
        shared.withUnsafeBufferPointer { n in
          spread.withUnsafeBufferPointer { table in
            for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
              buffer[i] = grained(buffer[i], SIMD3(repeating: n[i]), table.baseAddress!)
            }
          }
        }
      }
    }
    // The shared plane and each channel's own, filtered together as four lanes.
    let planes = noise4(width: w, height: h, seed: context.seed, threads: context.threads)
    return { buffer, rows in
      planes.withUnsafeBufferPointer { n in
        spread.withUnsafeBufferPointer { table in
          for i in (rows.lowerBound * w)..<(rows.upperBound * w) {
            let q = n[i]
            let grain = SIMD3(repeating: q.x) * mix + SIMD3(q.y, q.z, q.w) * independent
            buffer[i] = grained(buffer[i], grain, table.baseAddress!)
          }
        }
      }
    }
  }

}
