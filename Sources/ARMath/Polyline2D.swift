/// Plane geometry of polylines and polygons given as vertex lists (metres, pixels: any unit):
/// what geofences measure and maps draw.
public enum Polyline2D {
  /// Whether `p` is inside the polygon `ring` (vertices in order, the last joining the first),
  /// by the even–odd rule.
  public static func contains(_ p: SIMD2<Double>, ring: [SIMD2<Double>]) -> Bool {
    var inside = false
    for i in ring.indices {
      let a = ring[i], b = ring[(i + 1) % ring.count]
      if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
    }
    return inside
  }

  /// The distance from `p` to the polyline through `points` (back to the first when `closed`),
  /// and how far along the polyline its nearest point lies.
  public static func nearest(_ p: SIMD2<Double>, on points: [SIMD2<Double>], closed: Bool = false) -> (
    distance: Double, along: Double
  ) {
    guard let first = points.first else { return (.infinity, 0) }
    guard points.count > 1 else { return ((p - first).length, 0) }
    let path = closed ? points + [first] : points
    var best = (distance: Double.infinity, along: 0.0), travelled = 0.0
    for i in 0..<(path.count - 1) {
      let a = path[i], ab = path[i + 1] - a
      let length2 = ab.lengthSquared
      let t = length2 > 0 ? max(0, min(1, (p - a).dot(ab) / length2)) : 0
      let d = (a + ab * t - p).length
      if d < best.distance { best = (d, travelled + t * length2.squareRoot()) }
      travelled += length2.squareRoot()
    }
    return best
  }

  /// The distance from `p` to the boundary of the polygon `ring`, negative inside.
  public static func signedDistance(_ p: SIMD2<Double>, ring: [SIMD2<Double>]) -> Double {
    let d = nearest(p, on: ring, closed: true).distance
    return contains(p, ring: ring) ? -d : d
  }
}
