import ARMath

extension GreyImage {
  /// The quadrilateral of a dark region's convex hull, for an outline that is not one itself:
  /// a marker whose border is broken (a glint, a thin border lost to the threshold) lets its
  /// outline run in through the gap among its cells, yet its hull is still the marker's four
  /// sides. Only for outlines at least as long as four 28 px sides (as for tails) around
  /// regions that fill at least 45% of their hull: a marker's border alone is 44% of it (a
  /// tag36h11's), its dark cells add about half the rest.
  static func hullQuadrilateral(
    _ outline: [SIMD2<Double>], pixels: Int, minimumSide: Double
  ) -> [SIMD2<Double>]? {
    var perimeter = 0.0
    for (k, p) in outline.enumerated() { perimeter += (outline[(k + 1) % outline.count] - p).length }
    guard outline.count >= 4, perimeter >= 4 * max(28, minimumSide / 4) else { return nil }
    let hull = convexHull(outline)  // clockwise on the image
    guard hull.count >= 4, Double(pixels) >= 0.45 * area(hull) else { return nil }
    return quadrilateral(hull, minimumSide: minimumSide)
  }
}
