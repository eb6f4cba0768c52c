import ARMath
import ARTestSupport
import Testing

@testable import ARRender

/// A flat-coloured span's depth test, four samples at a time, against the same test sample by
/// sample.
@Suite("Flat spans")
struct FlatSpanTests {
  @Test("writes exactly the samples a per-sample depth test passes, ties and NaN included")
  func matchesPerSampleTest() {
    var rng = SplitMix64(seed: 9_301)
    let width = 48
    var partialGroups = 0
    for _ in 0..<3000 {
      let first = Int.random(in: 0..<8, using: &rng)
      let count = Int.random(in: 1...(width - first), using: &rng)
      let z0: Float = rng.scalar(-1...1), dzdx: Float = rng.scalar(-0.05...0.05)
      // What is there already: the span's own depth (a tie, which must not pass), just either
      // side of it, anything, NaN, or empty (+∞).
      let before: [Float] = (0..<width).map { x in
        let z = z0 + dzdx * Float(x)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return z
        case 1: return z.nextUp
        case 2: return z.nextDown
        case 3: return .nan
        case 4: return .infinity
        default: return rng.scalar(-1...1)
        }
      }
      var expectedDepth = before
      var expectedColor = [UInt32](repeating: 7, count: width)
      for x in first..<(first + count) {
        let z = z0 + dzdx * Float(x)
        if z < expectedDepth[x] {
          expectedDepth[x] = z
          expectedColor[x] = 0x1122_3344
        }
      }
      var depth = before
      var colors = [SIMD4<UInt8>](repeating: SIMD4(7, 0, 0, 0), count: width)
      depth.withUnsafeMutableBufferPointer { depth in
        colors.withUnsafeMutableBufferPointer { colors in
          let store = EncodedSamples(bytes: colors.baseAddress!, srgb: nil)
          Renderer.fillFlatSpan(
            SIMD4(0x44, 0x33, 0x22, 0x11), first: first, count: count, z0: z0, dzdx: dzdx,
            depth: depth.baseAddress!, row: 0, store: store)
        }
      }
      #expect(depth.map(\.bitPattern) == expectedDepth.map(\.bitPattern))
      #expect(colors.map { unsafeBitCast($0, to: UInt32.self) } == expectedColor)
      if count >= 4, expectedColor[first..<(first + 4)].contains(7),
        expectedColor[first..<(first + 4)].contains(0x1122_3344)
      {
        partialGroups += 1
      }
    }
    // The partial groups (some samples in front, some not) were exercised.
    #expect(partialGroups > 1000)
  }
}
