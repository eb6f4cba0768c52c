import ARImage
import ARMath
import Testing

@testable import ARMarkers

/// The eight-pixels-at-a-time luma against the formula pixel by pixel, to the bit: every size
/// around the vector width and the two-core split, upright and inverted.
@Suite("Grey image luma")
struct GreyLumaTests {
  @Test("equals 0.299 r + 0.587 g + 0.114 b pixel by pixel, to the bit")
  func equalsFormula() {
    var random = SplitMix64(seed: 601)
    for count in [1, 7, 8, 9, 15, 16, 17, 1000, (1 << 18) + 3] {
      let pixels = (0..<count).map { _ in
        SIMD4<UInt8>(
          .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
          .random(in: 0...255, using: &random), .random(in: 0...255, using: &random))
      }
      for inverted in [false, true] {
        let grey = GreyImage(RGBA8Image(width: count, height: 1, pixels: pixels), inverted: inverted)
        let expected = pixels.map { c -> Float in
          let y = 0.299 * Float(c.x) + 0.587 * Float(c.y) + 0.114 * Float(c.z)
          return inverted ? 255 - y : y
        }
        #expect(
          grey.values.map(\.bitPattern) == expected.map(\.bitPattern), "\(count) pixels, inverted \(inverted)"
        )
      }
    }
  }
}
