import ARAssets

/// Where the rasterizer keeps the colour of each sample, and in what form.
///
/// Two forms, chosen per frame: linear-light floats (16 bytes a sample), needed when samples are
/// averaged (supersampling) or blended; or the output's own 8-bit encoding (4 bytes), when each
/// sample is a pixel and nothing blends, so the frame needs no resolve pass and moves a quarter
/// of the memory. A flat-coloured triangle then encodes its colour once, not per pixel.
/// Stores are plain pointers shared by the tile workers, each writing its own tiles' samples.
protocol SampleStore: Sendable {
  /// A sample's stored form.
  associatedtype Stored
  /// The stored form of linear (or raw comparison-mode) colour `c`.
  func encode(_ c: SIMD4<Float>) -> Stored
  /// Writes `value` at sample `index`.
  func write(_ value: Stored, at index: Int)
  /// The colour at sample `index`, for blending over it.
  func color(at index: Int) -> SIMD4<Float>
}

/// Linear-light float samples (see ``SampleStore``).
struct LinearSamples: SampleStore, @unchecked Sendable {
  let color: UnsafeMutablePointer<SIMD4<Float>>

  @inline(__always) func encode(_ c: SIMD4<Float>) -> SIMD4<Float> { c }
  @inline(__always) func write(_ value: SIMD4<Float>, at index: Int) { color[index] = value }
  @inline(__always) func color(at index: Int) -> SIMD4<Float> { color[index] }
}

/// Samples already in the output's 8-bit encoding: sRGB colour (lit mode) or raw values
/// (comparison modes), alpha raw (see ``SampleStore``).
struct EncodedSamples: SampleStore, @unchecked Sendable {
  let bytes: UnsafeMutablePointer<SIMD4<UInt8>>
  /// ``SRGB/encodeTable`` for sRGB output, nil for raw values.
  let srgb: UnsafePointer<UInt8>?

  @inline(__always)
  func encode(_ c: SIMD4<Float>) -> SIMD4<UInt8> {
    @inline(__always) func raw(_ v: Float) -> UInt8 { UInt8((v > 0 ? (v < 1 ? v : 1) : 0) * 255 + 0.5) }
    guard let srgb else { return SIMD4(raw(c.x), raw(c.y), raw(c.z), raw(c.w)) }
    @inline(__always) func encoded(_ v: Float) -> UInt8 {
      // The table index round(v·65535) without a checked conversion (three compares and two
      // traps a channel, per pixel): adding 2²³ leaves the rounded integer in the low mantissa
      // bits. NaN and negatives clamp to 0.
      let index = (v > 0 ? (v < 1 ? v : 1) : 0) * 65535 + 0x1p23
      return srgb[Int(index.bitPattern &- (0x1p23 as Float).bitPattern)]
    }
    return SIMD4(encoded(c.x), encoded(c.y), encoded(c.z), raw(c.w))
  }

  @inline(__always) func write(_ value: SIMD4<UInt8>, at index: Int) { bytes[index] = value }

  /// Only opaque colours reach this store, so nothing reads what is under them; decoding is
  /// there for completeness.
  @inline(__always)
  func color(at index: Int) -> SIMD4<Float> {
    let p = bytes[index]
    let c = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), Float(p.w)) / 255
    guard srgb != nil else { return c }
    return SIMD4(SRGB.decode(c.x), SRGB.decode(c.y), SRGB.decode(c.z), c.w)
  }
}
