import ARImage
import ARMath

/// Samples already in the output's 8-bit encoding: sRGB colour (lit mode) or raw values
/// (comparison modes), alpha raw (see ``SampleStore``).
struct EncodedSamples: SampleStore, @unchecked Sendable {
  let bytes: UnsafeMutablePointer<SIMD4<UInt8>>
  /// The sRGB encoder's tables for sRGB output, nil for raw values.
  let srgb: SRGB.Encoder?

  /// Branch-free, one vector a pixel: the clamp and scale of all four channels at once, then
  /// the sRGB encoder's table reads. (Channel by channel, with Swift's checked conversions, this
  /// was a fifth of the textured fill.)
  @inline(__always)
  func encode(_ c: SIMD4<Float>) -> SIMD4<UInt8> {
    let unit = LaneMath.unitClamped(c)
    guard let srgb else { return SIMD4(truncatingIfNeeded: LaneMath.roundedSmall(unit * 255)) }
    // Colour through the encoder (the clamp gives +0 for −0 and NaN); alpha raw, rounded.
    return SIMD4(
      srgb.code(unit: unit.x), srgb.code(unit: unit.y), srgb.code(unit: unit.z),
      UInt8(truncatingIfNeeded: LaneMath.truncated(unit * 255 + 0.5).w))
  }

  @inline(__always) func write(_ value: SIMD4<UInt8>, at index: Int) { bytes[index] = value }

  /// sRGB colours four samples at a time, a channel per vector (a lane per sample), so that
  /// the encoder's table reads overlap; the same codes as ``encode(_:)``, alpha 255 (opaque).
  @inline(__always)
  func writeOpaque(_ colors: UnsafePointer<SIMD4<Float>>, at indices: UnsafePointer<Int32>, count: Int) {
    guard let srgb else { return writeEach(colors, at: indices, count: count) }
    let words = UnsafeMutableRawPointer(bytes)
    var k = 0
    while k < count {
      let c0 = LaneMath.unitClamped(colors[k]), c1 = LaneMath.unitClamped(colors[k &+ 1])
      let c2 = LaneMath.unitClamped(colors[k &+ 2]), c3 = LaneMath.unitClamped(colors[k &+ 3])
      let r = SIMD4(c0.x, c1.x, c2.x, c3.x), g = SIMD4(c0.y, c1.y, c2.y, c3.y)
      let b = SIMD4(c0.z, c1.z, c2.z, c3.z)
      // The clamp gives +0 for −0 and NaN, as the encoder needs.
      let red = srgb.codes(unit: r), green = srgb.codes(unit: g), blue = srgb.codes(unit: b)
      let packed = red | green &<< 8 | blue &<< 16 | SIMD4(repeating: Int32(bitPattern: 0xFF00_0000))
      let at = UnsafeRawPointer(indices + k).loadUnaligned(as: SIMD4<Int32>.self)
      let first = Int(at.x)
      if count &- k >= 4,
        LaneMath.signBits(LaneMath.equalMask(at &- at.x, SIMD4(0, 1, 2, 3))) == 15
      {
        // Four samples side by side (a run of a row): one store.
        (words + 4 &* first).storeBytes(of: packed, as: SIMD4<Int32>.self)
      } else {
        for lane in 0..<Swift.min(4, count &- k) {
          words.storeBytes(of: packed[lane], toByteOffset: 4 &* Int(at[lane]), as: Int32.self)
        }
      }
      k &+= 4
    }
  }

  @inline(__always)
  func fill(_ value: SIMD4<UInt8>, at index: Int, count: Int) {
    // As 32-bit words, which the loop fills several at a time.
    UnsafeMutableRawPointer(bytes + index).bindMemory(to: UInt32.self, capacity: count)
      .update(repeating: unsafeBitCast(value, to: UInt32.self), count: count)
  }

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
