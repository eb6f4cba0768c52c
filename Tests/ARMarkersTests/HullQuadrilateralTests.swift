import Testing

@testable import ARMarkers

/// The quadrilateral a marker with a broken border gives through its convex hull when its own
/// outline runs in through the gap.
@Suite("Hull quadrilaterals")
struct HullQuadrilateralTests {
  /// A 40 px square border 4 px wide, its top side cut by a 6 px gap, the left half of its
  /// inside dark (a marker's cells): the outline runs in through the gap.
  static func brokenBorder() -> (dark: [Bool], width: Int, height: Int) {
    let (width, height) = (48, 48)
    let dark = (0..<(width * height)).map { i -> Bool in
      let (x, y) = (i % width, i / width)
      guard (4..<44).contains(x), (4..<44).contains(y) else { return false }
      let border = x < 8 || x >= 40 || y < 8 || y >= 40
      let gap = y < 8 && (30..<36).contains(x)
      return (border && !gap) || (x < 24 && y < 40)
    }
    return (dark, width, height)
  }

  @Test("a broken border's outline is no quadrilateral; its hull's is the square")
  func brokenBorderSquare() throws {
    let (dark, width, height) = Self.brokenBorder()
    let parts = DarkComponents(dark: dark, width: width, height: height)
    #expect(parts.components.count == 1)
    let outline = parts.outline(of: 0)
    #expect(GreyImage.quadrilateral(outline, minimumSide: 8) == nil)
    let quad = try #require(
      GreyImage.hullQuadrilateral(outline, pixels: parts.components[0].count, minimumSide: 8))
    #expect(Set(quad) == [SIMD2(4, 4), SIMD2(44, 4), SIMD2(44, 44), SIMD2(4, 44)])
  }

  @Test("a sparse region (a border alone, less than 45% of its hull) gives nothing")
  func sparseRegion() {
    let (width, height) = (48, 48)
    let dark = (0..<(width * height)).map { i -> Bool in
      let (x, y) = (i % width, i / width)
      guard (4..<44).contains(x), (4..<44).contains(y) else { return false }
      return (x < 8 || x >= 40 || y < 8 || y >= 40) && !(y < 8 && (30..<36).contains(x))
    }
    let parts = DarkComponents(dark: dark, width: width, height: height)
    let outline = parts.outline(of: 0)
    #expect(GreyImage.hullQuadrilateral(outline, pixels: parts.components[0].count, minimumSide: 8) == nil)
  }
}
