import Foundation

/// Splits a simple polygon (convex or concave, possibly non-planar) into triangles by ear
/// clipping in the plane of its Newell normal, keeping the polygon's winding.
enum Triangulation {
  /// Triangles of the polygon with vertices `points`, as index triples into `points`;
  /// always `points.count − 2` of them. Degenerate polygons (collinear, repeated points) fall back
  /// to a fan, which is as good as any split of zero area.
  static func triangulate(_ points: [SIMD3<Float>]) -> [(Int, Int, Int)] {
    let n = points.count
    if n == 3 { return [(0, 1, 2)] }
    let normal = newellNormal(points)
    if n == 4 {
      return splitsAtFirstCorner(points[0], points[1], points[2], points[3], normal: normal)
        ? [(0, 1, 2), (0, 2, 3)] : [(1, 2, 3), (1, 3, 0)]
    }
    guard let (u, v, sign) = projection(normal) else { return fan(n) }
    let flat = points.map { SIMD2($0[u], $0[v] * sign) }
    // Ear clipping costs O(n²) and more: a large convex face (a cylinder's cap) is fanned in
    // O(n), which splits it as well as any other way. (Small faces keep ear clipping's split.)
    if n > 64 && isConvex(flat) { return fan(n) }
    var remaining = Array(0..<n)
    var triangles: [(Int, Int, Int)] = []
    triangles.reserveCapacity(n - 2)
    var guardCount = 0
    var i = 0
    while remaining.count > 3 {
      let m = remaining.count
      let (ia, ib, ic) = (remaining[(i + m - 1) % m], remaining[i % m], remaining[(i + 1) % m])
      if isEar(flat, ia, ib, ic, remaining) {
        triangles.append((ia, ib, ic))
        remaining.remove(at: i % m)
        guardCount = 0
      } else {
        i += 1
        guardCount += 1
        if guardCount > m {  // no ear: self-intersecting or degenerate; finish with a fan
          for k in 1..<(remaining.count - 1) {
            triangles.append((remaining[0], remaining[k], remaining[k + 1]))
          }
          return triangles
        }
      }
      i %= Swift.max(remaining.count, 1)
    }
    triangles.append((remaining[0], remaining[1], remaining[2]))
    return triangles
  }

  /// Whether quad `a b c d` (Newell normal `normal`) splits along the diagonal from its first
  /// corner, into (0, 1, 2) and (0, 2, 3), rather than into (1, 2, 3) and (1, 3, 0): the
  /// diagonal that keeps both triangles counter-clockwise in the quad's plane (the one through
  /// the reflex corner of a concave quad); the first for a degenerate quad (a fan). Made without
  /// arrays: most of a quad mesh's time went to allocating them.
  @inline(__always)
  static func splitsAtFirstCorner(
    _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>, _ d: SIMD3<Float>, normal: SIMD3<Float>
  ) -> Bool {
    guard let (u, v, sign) = projection(normal) else { return true }
    let (p0, p1, p2, p3) = (
      SIMD2(a[u], a[v] * sign), SIMD2(b[u], b[v] * sign), SIMD2(c[u], c[v] * sign), SIMD2(d[u], d[v] * sign)
    )
    return cross(p0, p1, p2) > 0 && cross(p0, p2, p3) > 0
  }

  /// The plane a polygon of Newell normal `normal` is projected onto: the two axes kept (the
  /// normal's dominant axis dropped) and the sign of the second that keeps counter-clockwise
  /// turns positive; nil for a polygon without area (or a normal that is not finite).
  @inline(__always)
  static func projection(_ normal: SIMD3<Float>) -> (u: Int, v: Int, sign: Float)? {
    let length = (normal * normal).sum().squareRoot()
    guard length > 0, length.isFinite else { return nil }
    let m = SIMD3(abs(normal.x), abs(normal.y), abs(normal.z))
    let axis = m.x >= m.y && m.x >= m.z ? 0 : (m.y >= m.z ? 1 : 2)
    let (u, v) = axis == 0 ? (1, 2) : (axis == 1 ? (2, 0) : (0, 1))
    return (u, v, normal[axis] >= 0 ? 1 : -1)
  }

  static func fan(_ n: Int) -> [(Int, Int, Int)] { (1..<(n - 1)).map { (0, $0, $0 + 1) } }

  /// Newell's normal: twice the area vector, robust for non-planar polygons.
  static func newellNormal(_ p: [SIMD3<Float>]) -> SIMD3<Float> {
    newellNormal(count: p.count) { p[$0] }
  }

  /// Newell's normal of the polygon of `count` points, point `i` being `point(i)`.
  @inline(__always)
  static func newellNormal(count: Int, _ point: (Int) -> SIMD3<Float>) -> SIMD3<Float> {
    var n = SIMD3<Float>.zero
    for i in 0..<count {
      let a = point(i), b = point((i + 1) % count)
      n += SIMD3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y))
    }
    return n
  }

  @inline(__always)
  static func cross(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Float {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
  }

  /// Whether the polygon `p` is convex and simple: every corner turns left (or goes straight)
  /// and the turns add up to one full turn (a pentagram's turn left too, but twice round).
  static func isConvex(_ p: [SIMD2<Float>]) -> Bool {
    var turning: Float = 0
    for i in 0..<p.count {
      let a = p[(i + p.count - 1) % p.count], b = p[i], c = p[(i + 1) % p.count]
      guard cross(a, b, c) >= 0 else { return false }
      let (u, v) = (b - a, c - b)
      turning += atan2(u.x * v.y - u.y * v.x, (u * v).sum())
    }
    return turning < 3 * .pi
  }

  /// Whether `b` is a convex corner whose triangle `a b c` contains no other remaining vertex.
  static func isEar(_ p: [SIMD2<Float>], _ a: Int, _ b: Int, _ c: Int, _ remaining: [Int]) -> Bool {
    guard cross(p[a], p[b], p[c]) > 0 else { return false }
    for k in remaining where k != a && k != b && k != c {
      if p[k] == p[a] || p[k] == p[b] || p[k] == p[c] { continue }
      if cross(p[a], p[b], p[k]) >= 0 && cross(p[b], p[c], p[k]) >= 0 && cross(p[c], p[a], p[k]) >= 0 {
        return false
      }
    }
    return true
  }
}
