import ARImage
import Foundation
import Testing

/// sRGB (IEC 61966-2-1) as a library: the transfer function's defining values, every 8-bit code's
/// round trip, the table encoder against the formula, and the image conversions.
@Suite("sRGB")
struct SRGBTests {
  @Test("the transfer function's defining points: 0, the linear segment's end, mid-grey, 1")
  func definingValues() {
    #expect(SRGB.decode(0) == 0 && SRGB.encode(0) == 0)
    #expect(abs(SRGB.decode(1) - 1) < 1e-7 && abs(SRGB.encode(1) - 1) < 1e-7)
    // Below 0.04045 the curve is linear with slope 1/12.92.
    #expect(SRGB.decode(0.04) == Float(0.04) / 12.92)
    // Code 128 is 21.6% of full light ((128/255 + 0.055) / 1.055)^2.4 = 0.2158605.
    #expect(abs(SRGB.decodeTable[128] - 0.215_860_5) < 1e-6)
    // Out of range and NaN encode to the ends, as the doc says.
    #expect(SRGB.encode8(-3) == 0 && SRGB.encode8(7) == 255 && SRGB.encode8(.nan) == 0)
  }

  @Test("every 8-bit code survives decoding and encoding, by the formula and by the table encoder")
  func everyCodeRoundTrips() {
    let encoder = SRGB.Encoder.shared
    for code in 0...255 {
      let linear = SRGB.decodeTable[code]
      #expect(SRGB.encode8(linear) == UInt8(code), "code \(code)")
      #expect(encoder.code(linear) == UInt8(code), "code \(code), table encoder")
    }
  }

  @Test("the table encoder equals the formula on 100,000 seeded values in [0, 1]")
  func tableEncoderMatchesFormula() {
    var state: UInt64 = 0x5EED  // a linear congruential sequence: the same values every run
    for _ in 0..<100_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = Float(state >> 40) / Float(1 << 24)
      #expect(SRGB.Encoder.shared.code(unit: value) == SRGB.encode8(value), "value \(value)")
    }
  }

  @Test("an image's linear and 8-bit forms: colour transformed, alpha only scaled; premultiplied codes")
  func imageConversions() {
    let image = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(255, 128, 0, 255), SIMD4(200, 100, 50, 128)])
    let linear = image.linear
    #expect(linear[0, 0].x == 1 && linear[0, 0].z == 0 && linear[0, 0].w == 1)
    #expect(linear[1, 0].w == Float(128) / 255)
    #expect(linear.sRGB8 == image)
    let premultiplied = image.premultiplied
    #expect(premultiplied[0, 0] == image[0, 0])
    // Code values times alpha, rounded to nearest: 200 · 128 / 255 = 100.4.
    #expect(premultiplied[1, 0] == SIMD4(100, 50, 25, 128))
  }
}
