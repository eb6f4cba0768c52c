import ARImage
import ARMath
import Testing

@testable import ARMarkers

/// The sliding-window threshold against its definition evaluated pixel by pixel: dark where
/// the luma is below the mean of the window around it (cut at the edges) by more than 7
/// levels, on seeded images of every shape (narrower than four pixels, narrower than the
/// window) and windows from 3 to wider than the image.
@Suite("Adaptive threshold")
struct AdaptiveThresholdTests {
  static func reference(_ grey: GreyImage, window: Int) -> [Bool] {
    let r = window / 2
    var dark: [Bool] = []
    for y in 0..<grey.height {
      for x in 0..<grey.width {
        let (x0, x1) = (max(0, x - r), min(grey.width, x + r + 1))
        let (y0, y1) = (max(0, y - r), min(grey.height, y + r + 1))
        var sum = 0.0
        for v in y0..<y1 { for u in x0..<x1 { sum += Double(grey.values[v * grey.width + u]) } }
        let area = Double((x1 - x0) * (y1 - y0))
        dark.append((Double(grey.values[y * grey.width + x]) + 7) * area < sum)
      }
    }
    return dark
  }

  @Test("equals the definition on seeded images and windows")
  func equalsDefinition() {
    var random = SplitMix64(seed: 41)
    for _ in 0..<60 {
      let width = Int.random(in: 1...70, using: &random), height = Int.random(in: 1...30, using: &random)
      // Smooth regions with speckles: most pixels far from the threshold, some near it.
      let pixels = (0..<(width * height)).map { i -> SIMD4<UInt8> in
        let base = (i % width) * 3 + (i / width) * 2
        let level = UInt8(clamping: base % 256 + Int.random(in: -20...20, using: &random))
        return SIMD4(level, UInt8.random(in: 0...255, using: &random), level, 255)
      }
      let grey = GreyImage(RGBA8Image(width: width, height: height, pixels: pixels))
      for window in [3, 7, 13, 61, 181] {
        #expect(
          grey.threshold(window: window) == Self.reference(grey, window: window),
          "\(width)×\(height), \(window)")
      }
    }
  }

  @Test("images of whole 8-bit levels (a JPEG's luma), thresholded in integers, equal the definition too")
  func wholeLevelsEqualDefinition() {
    var random = SplitMix64(seed: 42)
    for _ in 0..<60 {
      let width = Int.random(in: 1...70, using: &random), height = Int.random(in: 1...30, using: &random)
      let pixels = (0..<(width * height)).map { i -> UInt8 in
        let base = (i % width) * 3 + (i / width) * 2
        return UInt8(clamping: base % 256 + Int.random(in: -20...20, using: &random))
      }
      let luma = Image<UInt8>(width: width, height: height, pixels: pixels)
      let grey = GreyImage(luma: luma)
      #expect(grey.levels != nil)
      #expect(GreyImage(luma: luma, inverted: true).levels == nil)
      for window in [3, 7, 13, 61, 181] {
        #expect(
          grey.threshold(window: window) == Self.reference(grey, window: window),
          "\(width)×\(height), \(window)")
      }
    }
  }

  @Test(
    "whole 8-bit levels halved (2 × 2 blocks' sums, in integers) equal the definition on the halved image")
  func halvedWholeLevelsEqualDefinition() {
    var random = SplitMix64(seed: 45)
    for _ in 0..<60 {
      // Wide enough for the kernel's vectors of four and eight, and their remainders.
      let width = Int.random(in: 1...150, using: &random), height = Int.random(in: 1...40, using: &random)
      let pixels = (0..<(width * height)).map { i -> UInt8 in
        let base = (i % width) * 5 + (i / width) * 3
        return UInt8(clamping: base % 256 + Int.random(in: -60...60, using: &random))
      }
      let grey = GreyImage(luma: Image<UInt8>(width: width, height: height, pixels: pixels))
      let half = grey.halved
      for window in [3, 5, 11, 33, 91] {
        let dark = grey.wholeLevelThreshold(grey.levels!, window: window, halved: true)
        guard half.width > 0, half.height > 0 else {
          #expect(dark == nil, "\(width)×\(height): an empty halved image")
          continue
        }
        #expect(dark == Self.reference(half, window: window), "\(width)×\(height), \(window)")
      }
    }
  }
}
