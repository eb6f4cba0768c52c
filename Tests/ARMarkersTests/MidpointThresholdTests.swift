import ARImage
import ARMath
import Testing

@testable import ARMarkers

/// The tile midpoint threshold against its definition evaluated pixel by pixel, and the case it
/// is for: a marker's margin beside a far lighter surface.
@Suite("Tile midpoint threshold")
struct MidpointThresholdTests {
  /// Dark where the luma is below the middle of the lowest and highest values in the 3 × 3
  /// tiles of 4 × 4 pixels around the pixel's tile (cut at the edges), when those differ by at
  /// least 20 levels and the lowest is at most half the highest.
  static func reference(_ grey: GreyImage) -> [Bool] {
    var dark: [Bool] = []
    for y in 0..<grey.height {
      for x in 0..<grey.width {
        let (tx, ty) = (x / 4, y / 4)
        var (low, high) = (Float.infinity, -Float.infinity)
        for v in max(0, 4 * ty - 4)..<min(grey.height, 4 * ty + 8) {
          for u in max(0, 4 * tx - 4)..<min(grey.width, 4 * tx + 8) {
            low = min(low, grey.values[v * grey.width + u])
            high = max(high, grey.values[v * grey.width + u])
          }
        }
        let apart = high - low >= 20 && low <= high / 2
        dark.append(apart && grey.values[y * grey.width + x] < (low + high) / 2)
      }
    }
    return dark
  }

  static func grey(_ levels: [[UInt8]]) -> GreyImage {
    GreyImage(
      RGBA8Image(
        width: levels[0].count, height: levels.count,
        pixels: levels.joined().map { SIMD4($0, $0, $0, 255) }))
  }

  @Test("equals the definition on seeded images of every shape")
  func equalsDefinition() {
    var random = SplitMix64(seed: 43)
    for _ in 0..<60 {
      let width = Int.random(in: 1...70, using: &random), height = Int.random(in: 1...30, using: &random)
      let levels = (0..<height).map { y in
        (0..<width).map { x in
          UInt8(clamping: (x * 5 + y * 3) % 256 + Int.random(in: -30...30, using: &random))
        }
      }
      let grey = Self.grey(levels)
      #expect(grey.midpointThreshold() == Self.reference(grey), "\(width)×\(height)")
    }
  }

  @Test("on a JPEG's 8-bit luma (in bytes, in C) equals the definition, levels 0 and 255 included")
  func wholeLevelsEqualDefinition() {
    var random = SplitMix64(seed: 44)
    for round in 0..<80 {
      let width = Int.random(in: 1...150, using: &random), height = Int.random(in: 1...30, using: &random)
      // Half the images a gradient with noise, half blocks of extremes: dark ink on white paper
      // (tiles apart), and bounds of odd sums (ceil of a half).
      let pixels = (0..<(width * height)).map { i -> UInt8 in
        let (x, y) = (i % width, i / width)
        if round % 2 == 0 {
          return UInt8(clamping: (x * 7 + y * 3) % 256 + Int.random(in: -40...40, using: &random))
        }
        return [0, 255, 9, 31, 120, 121][(x / 3 + y / 5 + Int.random(in: 0...1, using: &random)) % 6]
      }
      let grey = GreyImage(luma: Image<UInt8>(width: width, height: height, pixels: pixels))
      #expect(grey.levels != nil)
      #expect(grey.midpointThreshold() == Self.reference(grey), "\(width)×\(height)")
    }
  }

  @Test("a margin of shaded paper between two tags' borders, under a sunlit face, stays light")
  func marginBesideLighterFace() throws {
    // Columns: a tag's black border, 5 px of shaded paper (150), the next tag's border; rows:
    // a sunlit face (250) over the tags' tops, as where two faces of a cube meet.
    let levels = (0..<16).map { y -> [UInt8] in
      (0..<20).map { x -> UInt8 in
        if y < 4 { return 250 }
        if y == 4 { return 190 }
        return (7..<12).contains(x) ? 150 : 15
      }
    }
    let grey = Self.grey(levels)
    let gap = (5..<16).flatMap { y in (7..<12).map { y * 20 + $0 } }
    let (midpoint, windowMean) = (grey.midpointThreshold(), grey.threshold(window: 7))
    #expect(gap.allSatisfy { !midpoint[$0] })
    // The window mean joins the two borders across the gap's top rows: why small markers'
    // outlines are found by the midpoint.
    #expect(gap.contains { windowMean[$0] })
  }
}
