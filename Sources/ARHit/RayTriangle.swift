/// A ray prepared for watertight ray/triangle tests (Woop, Benthin and Wald, "Watertight
/// Ray/Triangle Intersection", JCGT 2013).
///
/// The ray is turned into a coordinate frame where it runs along +z from the origin; triangle
/// vertices are sheared into that frame and the 2-D edge functions decide the hit. A shared
/// edge's function is computed from the same two transformed vertices in both triangles, so the
/// two results are exact negatives: no ray slips between neighbours, and a ray through an edge
/// or a vertex hits at least one of them. In `Double` no extended-precision fallback is needed.
public struct WatertightRay: Sendable {
  /// The ray.
  public let ray: HitRay
  @usableFromInline let kx: Int, ky: Int, kz: Int
  @usableFromInline let sx: Double, sy: Double, sz: Double

  /// Prepares `ray`.
  public init(_ ray: HitRay) {
    self.ray = ray
    let d = ray.direction
    let ad = SIMD3(abs(d.x), abs(d.y), abs(d.z))
    // The dominant axis becomes z; swap x and y to keep the frame's handedness (winding).
    let kz = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2)
    var kx = (kz + 1) % 3, ky = (kx + 1) % 3
    if d[kz] < 0 { swap(&kx, &ky) }
    self.kx = kx
    self.ky = ky
    self.kz = kz
    sx = d[kx] / d[kz]
    sy = d[ky] / d[kz]
    sz = 1 / d[kz]
  }

  /// The hit of the ray with triangle (a, b, c) in `tRange`: the ray parameter and the
  /// barycentric coordinates (u, v) of b and c (the hit is (1 − u − v)·a + u·b + v·c). Both
  /// windings are hit. Nil if the ray misses or the hit is outside `tRange`.
  @inlinable
  public func intersect(
    _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, tMin: Double = 0, tMax: Double = .infinity
  ) -> (t: Double, u: Double, v: Double)? {
    let o = ray.origin
    let pa = a - o, pb = b - o, pc = c - o
    let ax = pa[kx] - sx * pa[kz], ay = pa[ky] - sy * pa[kz]
    let bx = pb[kx] - sx * pb[kz], by = pb[ky] - sy * pb[kz]
    let cx = pc[kx] - sx * pc[kz], cy = pc[ky] - sy * pc[kz]
    let u = cx * by - cy * bx
    let v = ax * cy - ay * cx
    let w = bx * ay - by * ax
    if (u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0) { return nil }
    let det = u + v + w
    if det == 0 { return nil }  // the ray lies in the triangle's plane
    let az = sz * pa[kz], bz = sz * pb[kz], cz = sz * pc[kz]
    let tScaled = u * az + v * bz + w * cz
    // t = tScaled / det within [tMin, tMax], compared without dividing (sign of det matters).
    if det > 0 {
      if tScaled < tMin * det || tScaled > tMax * det { return nil }
    } else {
      if tScaled > tMin * det || tScaled < tMax * det { return nil }
    }
    let inverse = 1 / det
    return (tScaled * inverse, v * inverse, w * inverse)
  }
}
