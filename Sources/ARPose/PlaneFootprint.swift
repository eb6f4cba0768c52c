/// Where a plane's inliers lie on it: square cells of twice their typical spacing in the
/// plane's own 2D basis. The spacing comes from the 5–95% range of their coordinates, so stray
/// points do not inflate it, read off at most ``spacingSamples`` of them spread through the list
/// (sorting every inlier's coordinates twice cost more than the rest of a largest-plane search).
/// A surface's inliers fill their cells contiguously; clutter that happens to lie in the
/// plane's band is scattered over the whole scene.
struct PlaneFootprint {
  let u: SIMD3<Double>, v: SIMD3<Double>
  /// The cell side, metres.
  let cell: Double
  /// How many inliers the spacing is estimated from, at most.
  static let spacingSamples = 1024

  /// The footprint of `inliers` on the plane of unit `normal`; cells no smaller than `threshold`.
  init(_ inliers: [Int], normal: SIMD3<Double>, points: [SIMD3<Double>], threshold: Double) {
    (u, v) = PlaneGeometry.basis(normal)
    func range(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted[sorted.count * 95 / 100] - sorted[sorted.count * 5 / 100]
    }
    let (u, v) = (self.u, self.v)
    let stride = max(1, inliers.count / Self.spacingSamples)
    let sample = Swift.stride(from: 0, to: inliers.count, by: stride).map { points[inliers[$0]] }
    let area = max(range(sample.map { $0.dot(u) }) * range(sample.map { $0.dot(v) }), threshold * threshold)
    cell = max(2 * (area / Double(max(inliers.count, 1))).squareRoot(), threshold)
  }

  /// The cell `p` projects into along the normal.
  func key(_ p: SIMD3<Double>) -> UInt64 {
    SortedCells.key(Int64((p.dot(u) / cell).rounded(.down)), Int64((p.dot(v) / cell).rounded(.down)))
  }
}
