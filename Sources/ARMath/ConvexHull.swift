/// The convex hull of 2-D points, counter-clockwise with x right and y up (so clockwise on an
/// image, y down), without collinear points; fewer than three points come back sorted
/// (Andrew's monotone chain: O(n log n)).
package func convexHull(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
  let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
  guard sorted.count > 2 else { return sorted }
  func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
  }
  var lower: [SIMD2<Double>] = [], upper: [SIMD2<Double>] = []
  for p in sorted {
    while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 {
      lower.removeLast()
    }
    lower.append(p)
  }
  for p in sorted.reversed() {
    while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 {
      upper.removeLast()
    }
    upper.append(p)
  }
  return Array(lower.dropLast() + upper.dropLast())
}
