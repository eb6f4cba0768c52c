import ARMath

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
  // The shear as three row vectors: x′ = p·rowX, y′ = p·rowY, z′ = p·rowZ for p relative to the
  // origin. Each row has at most two non-zero entries (1 and −s), so the dot product rounds
  // exactly like Woop's p[kx] − s·p[kz]: the transform of a vertex depends only on the vertex
  // and the ray, which is what makes shared edges agree. Rows instead of permuted indices keep
  // the inner loop free of variable subscripts.
  @usableFromInline let rowX: SIMD3<Double>, rowY: SIMD3<Double>, rowZ: SIMD3<Double>
  /// The same shear by axis, for packets (a product with a zero entry of a row adds only a
  /// zero, so both forms give the same values).
  @usableFromInline let shear: RayShear

  /// Prepares `ray`.
  public init(_ ray: HitRay) {
    self.ray = ray
    shear = RayShear(ray)
    let (kx, ky, kz) = (shear.axes.x, shear.axes.y, shear.axes.z)
    // Built by selects, not by storing into vector lanes at run-time indices: those stores and
    // the vector loads after them stalled on store forwarding, a tenth of a ray's cost.
    func row(_ one: Int, _ shear: Double) -> SIMD3<Double> {
      SIMD3(
        0 == one ? 1 : (0 == kz ? shear : 0), 1 == one ? 1 : (1 == kz ? shear : 0),
        2 == one ? 1 : (2 == kz ? shear : 0))
    }
    rowX = row(kx, shear.shearX)
    rowY = row(ky, shear.shearY)
    let sz = shear.scaleZ
    rowZ = SIMD3(0 == kz ? sz : 0, 1 == kz ? sz : 0, 2 == kz ? sz : 0)
  }

  /// The hit of the ray with triangle (a, b, c) in `tRange`: the ray parameter and the
  /// barycentric coordinates (u, v) of b and c (the hit is (1 − u − v)·a + u·b + v·c). Both
  /// windings are hit. Nil if the ray misses or the hit is outside `tRange`.
  @inlinable @inline(__always)
  public func intersect(
    _ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, tMin: Double = 0, tMax: Double = .infinity
  ) -> (t: Double, u: Double, v: Double)? {
    let o = ray.origin
    let pa = a - o, pb = b - o, pc = c - o
    let ax = Self.dot(pa, rowX), ay = Self.dot(pa, rowY)
    let bx = Self.dot(pb, rowX), by = Self.dot(pb, rowY)
    let cx = Self.dot(pc, rowX), cy = Self.dot(pc, rowY)
    let u = cx * by - cy * bx
    let v = ax * cy - ay * cx
    let w = bx * ay - by * ax
    if (u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0) { return nil }
    let det = u + v + w
    if det == 0 { return nil }  // the ray lies in the triangle's plane
    let tScaled = u * Self.dot(pa, rowZ) + v * Self.dot(pb, rowZ) + w * Self.dot(pc, rowZ)
    // t = tScaled / det within [tMin, tMax], compared without dividing (sign of det matters).
    if det > 0 {
      if tScaled < tMin * det || tScaled > tMax * det { return nil }
    } else {
      if tScaled > tMin * det || tScaled < tMax * det { return nil }
    }
    let inverse = 1 / det
    return (tScaled * inverse, v * inverse, w * inverse)
  }

  /// p·r summed in a fixed order (x, y, z), so the same vertex always rounds the same way.
  @inlinable @inline(__always)
  static func dot(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Double { (p.x * r.x + p.y * r.y) + p.z * r.z }
}
