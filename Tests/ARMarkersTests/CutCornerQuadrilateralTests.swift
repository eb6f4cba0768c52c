import Testing

@testable import ARMarkers

/// The quadrilateral of a region the image's edge cuts off at a corner: the corner where the
/// two sides through the edge meet, outside the image.
@Suite("Cut-corner quadrilaterals")
struct CutCornerQuadrilateralTests {
  /// A square turned 45° with corners (-12, 150), (100, 38), (212, 150), (100, 262), as its
  /// outline in a 480 × 360 image runs: cut by the left edge from (0, 162) to (0, 138).
  static let diamond: [SIMD2<Double>] = [
    SIMD2(0, 138), SIMD2(100, 38), SIMD2(212, 150), SIMD2(100, 262), SIMD2(0, 162),
  ]

  @Test("a square cut at a corner by the image's edge gives that corner, outside the image")
  func diamondCorner() throws {
    let quad = try #require(
      GreyImage.cutCornerQuadrilateral(Self.diamond, width: 480, height: 360, minimumSide: 8, finer: false))
    let expected: [SIMD2<Double>] = [SIMD2(-12, 150), SIMD2(100, 38), SIMD2(212, 150), SIMD2(100, 262)]
    #expect(zip(quad, expected).allSatisfy { ($0 - $1).length < 1e-9 }, "\(quad)")
    // The outline's own quadrilateral keeps the cut corner on the edge: the cut one is tried
    // first for a region touching the edge.
    #expect(GreyImage.quadrilateral(Self.diamond, minimumSide: 8) != nil)
  }

  @Test("an outline touching the edge in two stretches, or along a whole side, gives none")
  func notCutCorners() {
    // A "C" open to the left edge: on the edge at two stretches.
    let twice: [SIMD2<Double>] = [
      SIMD2(0, 10), SIMD2(40, 10), SIMD2(40, 50), SIMD2(0, 50), SIMD2(0, 40), SIMD2(20, 40), SIMD2(20, 20),
      SIMD2(0, 20),
    ]
    #expect(GreyImage.stretchInside(twice, onEdge: { $0.x == 0 }) == nil)
    #expect(
      GreyImage.cutCornerQuadrilateral(twice, width: 100, height: 100, minimumSide: 8, finer: true) == nil)
    // A square whose left side runs along the edge: three sides inside, no corner outside.
    let side: [SIMD2<Double>] = [SIMD2(0, 10), SIMD2(40, 10), SIMD2(40, 50), SIMD2(0, 50)]
    #expect(
      GreyImage.cutCornerQuadrilateral(side, width: 100, height: 100, minimumSide: 8, finer: true) == nil)
    // Inside the image: not on the edge at all.
    let inside = Self.diamond.map { $0 + SIMD2(20, 0) }
    #expect(
      GreyImage.cutCornerQuadrilateral(inside, width: 480, height: 360, minimumSide: 8, finer: true) == nil)
  }

  @Test("a sliver's short cut side, lost at 3% of the perimeter, is found at a finer tolerance")
  func sliverTip() throws {
    // Tag 163's outline as the real fisheye photo's top edge cuts it (rounded): a short side of
    // 40 px beside sides of 490.
    let sliver: [SIMD2<Double>] = [
      SIMD2(1570, 0), SIMD2(1792, 342), SIMD2(1794, 458), SIMD2(1531, 40), SIMD2(1538, 0),
    ]
    #expect(
      GreyImage.cutCornerQuadrilateral(sliver, width: 2000, height: 1000, minimumSide: 8, finer: false) == nil
    )
    let quad = try #require(
      GreyImage.cutCornerQuadrilateral(sliver, width: 2000, height: 1000, minimumSide: 8, finer: true))
    // Where AprilTag puts the tip: about (1545, -38).
    #expect(quad.contains { ($0 - SIMD2(1545, -38)).length < 2 }, "\(quad)")
  }
}
