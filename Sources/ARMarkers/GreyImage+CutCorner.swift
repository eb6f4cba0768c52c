import ARMath

extension GreyImage {
  /// The quadrilateral of a dark region cut off by the image's edge at one of its corners:
  /// its outline leaves the image on one side of the corner and comes back on the other, so
  /// it has five sides, one along the image's edge. The two sides beside that one are the
  /// marker's, and the corner is where their lines meet, outside the image. Nil unless the
  /// outline is one stretch inside the image, between two points on its edge, that simplifies
  /// to four sides with the lines of the first and last meeting beyond the edge.
  ///
  /// `outline` is at pixel boundaries, as ``DarkComponents`` traces it, in an image of
  /// `width` × `height` pixels. The stretch is simplified at 3% of the perimeter, as a whole
  /// outline is, and when `finer` and it has three sides, at 1.5% and 0.75% until it has four:
  /// a cut corner's side can be short (a fifth of the long ones on a sliver seen at 15°).
  static func cutCornerQuadrilateral(
    _ outline: [SIMD2<Double>], width: Int, height: Int, minimumSide: Double, finer: Bool
  ) -> [SIMD2<Double>]? {
    let (w, h) = (Double(width), Double(height))
    let n = outline.count
    guard
      let (start, count) = Self.stretchInside(
        outline, onEdge: { $0.x == 0 || $0.y == 0 || $0.x == w || $0.y == h })
    else { return nil }
    @inline(__always) func stretch(_ k: Int) -> SIMD2<Double> {
      let i = start &+ k
      return outline[i >= n ? i &- n : i]
    }
    var perimeter = 0.0
    for (k, p) in outline.enumerated() { perimeter += (outline[k + 1 < n ? k + 1 : 0] - p).length }
    guard perimeter >= 8 else { return nil }
    for share in [0.03, 0.015, 0.0075].prefix(finer ? 3 : 1) {
      var corners: [SIMD2<Double>] = []
      Self.simplify(count: count, stretch, Swift.max(1, share * perimeter), into: &corners)
      // Three sides at 3% may hide a short fourth; fewer hide more than a marker's corner has.
      guard corners.count <= 5, corners.count >= 4 || share < 0.03 else { return nil }
      guard corners.count == 5 else { continue }
      // The ends lie on the image's edge, on the marker's sides through the cut corner.
      guard let corner = Self.meeting(corners[1], corners[0], corners[3], corners[4]),
        !Self.isInside(corner, width: w, height: h)
      else { return nil }
      // Lines nearly parallel meet far off: the corner no farther out than the longest side.
      let sides = (1..<4).map { (corners[$0 + 1] - corners[$0]).length }
      guard (corner - corners[1]).length <= 2 * sides.max()! else { return nil }
      return convexClockwise([corner, corners[1], corners[2], corners[3]], minimumSide: minimumSide)
    }
    return nil
  }

  /// Where in the closed `outline` it leaves the image's edge, and how many points (both ends
  /// on the edge) run from there to where it comes back, when every other point is on the
  /// edge: nil when the outline touches the edge in more than one stretch, or nowhere. (Every
  /// outline of a region touching the edge is asked: nothing is allocated.)
  static func stretchInside(
    _ outline: [SIMD2<Double>], onEdge: (SIMD2<Double>) -> Bool
  ) -> (start: Int, count: Int)? {
    let n = outline.count
    guard n >= 4 else { return nil }
    // The start: an edge point followed by one inside; only one such.
    var (start, inside) = (-1, 0)
    var previous = onEdge(outline[n - 1])
    for k in 0..<n {
      let here = onEdge(outline[k])
      if !here {
        inside += 1
        if previous {
          guard start < 0 else { return nil }
          start = k == 0 ? n - 1 : k - 1
        }
      }
      previous = here
    }
    guard start >= 0 else { return nil }
    return (start, inside + 2)
  }

  /// Where the line from `a` through `b` meets the line from `c` through `d`, beyond `b` on
  /// the first and beyond `d` on the second; nil for parallel lines or a meeting short of
  /// either.
  static func meeting(
    _ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>
  ) -> SIMD2<Double>? {
    func cross(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> Double { p.x * q.y - p.y * q.x }
    let (u, v, ac) = (b - a, d - c, c - a)
    let denominator = cross(u, v)
    guard abs(denominator) > 1e-9 * (u.length * v.length) else { return nil }
    let (t, s) = (cross(ac, v) / denominator, cross(ac, u) / denominator)
    guard t >= 1, s >= 1 else { return nil }
    return a + u * t
  }

  /// Whether `p` lies in the image of `width` × `height` pixels (its edges included).
  static func isInside(_ p: SIMD2<Double>, width: Double, height: Double) -> Bool {
    p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height
  }
}
