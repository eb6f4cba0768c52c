import ARMath
import Testing

/// `convexHull` (Andrew's monotone chain), which plane outlines and marker candidates share.
@Suite("Convex hull")
struct ConvexHullTests {
  @Test("the hull of seeded points holds every point, turns one way, and keeps only corners")
  func hullOfSeededPoints() {
    var random = SplitMix64(seed: 136)
    for _ in 0..<200 {
      let points = (0..<Int.random(in: 3...60, using: &random)).map { _ in
        SIMD2(Double(Int.random(in: 0...40, using: &random)), Double(Int.random(in: 0...40, using: &random)))
      }
      let hull = convexHull(points)
      guard hull.count >= 3 else { continue }  // all points on a line
      for k in hull.indices {
        let (a, b) = (hull[k], hull[(k + 1) % hull.count])
        // Clockwise on the image (y down): every point on the right of each side, or on it.
        for p in points { #expect((b - a).x * (p - a).y - (b - a).y * (p - a).x >= 0) }
        // No point of the hull lies on its neighbours' line.
        let c = hull[(k + 2) % hull.count]
        #expect((b - a).x * (c - b).y - (b - a).y * (c - b).x > 0)
      }
    }
  }
}
