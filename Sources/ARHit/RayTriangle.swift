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
  // The same shear by axis, for packets: x′ = p[kx] + p[kz]·shearX, y′ = p[ky] + p[kz]·shearY,
  // z′ = p[kz]·scaleZ (the rows' non-zero entries; a product with a zero entry adds only a zero,
  // so both forms give the same values).
  @usableFromInline let axes: SIMD3<Int>
  /// The origin's coordinates on axes kx, ky, kz.
  @usableFromInline let axisOrigin: SIMD3<Double>
  @usableFromInline let shearX: Double, shearY: Double, scaleZ: Double

  /// Prepares `ray`.
  public init(_ ray: HitRay) {
    self.ray = ray
    let d = ray.direction
    let ad = SIMD3(abs(d.x), abs(d.y), abs(d.z))
    // The dominant axis becomes z; swap x and y to keep the frame's handedness (winding).
    let kz = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2)
    var kx = (kz + 1) % 3, ky = (kx + 1) % 3
    let dz = Self.component(d, kz)
    if dz < 0 { swap(&kx, &ky) }
    let sx = -(Self.component(d, kx) / dz), sy = -(Self.component(d, ky) / dz), sz = 1 / dz
    // Built by selects, not by storing into vector lanes at run-time indices: those stores and
    // the vector loads after them stalled on store forwarding, a tenth of a ray's cost.
    func row(_ one: Int, _ shear: Double) -> SIMD3<Double> {
      SIMD3(
        0 == one ? 1 : (0 == kz ? shear : 0), 1 == one ? 1 : (1 == kz ? shear : 0),
        2 == one ? 1 : (2 == kz ? shear : 0))
    }
    rowX = row(kx, sx)
    rowY = row(ky, sy)
    rowZ = SIMD3(0 == kz ? sz : 0, 1 == kz ? sz : 0, 2 == kz ? sz : 0)
    axes = SIMD3(kx, ky, kz)
    let o = ray.origin
    axisOrigin = SIMD3(Self.component(o, kx), Self.component(o, ky), Self.component(o, kz))
    shearX = sx
    shearY = sy
    scaleZ = sz
  }

  /// `v[axis]` by selects.
  @inline(__always)
  private static func component(_ v: SIMD3<Double>, _ axis: Int) -> Double {
    axis == 0 ? v.x : (axis == 1 ? v.y : v.z)
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

  /// The nearest hit of the ray with the four triangles of a ``LeafTriangles`` packet at
  /// `packet`, in `tRange`: the lane, and the hit as ``intersect(_:_:_:tMin:tMax:)`` gives it,
  /// bit for bit. Lanes are taken in order, each narrowing the range for the next, as four
  /// calls of that function would.
  @inlinable @inline(__always)
  func intersect<S: LeafScalar>(packet: UnsafePointer<S>, tMin: Double, tMax: Double)
    -> (lane: Int, t: Double, u: Double, v: Double)?
  {
    @inline(__always) func sheared(_ vertex: Int) -> (x: SIMD4<Double>, y: SIMD4<Double>, z: SIMD4<Double>) {
      @inline(__always) func relative(_ axis: Int) -> SIMD4<Double> {
        let q = packet + 12 * vertex + 4 * axes[axis]
        return SIMD4(q[0].widened, q[1].widened, q[2].widened, q[3].widened)
          - SIMD4(repeating: axisOrigin[axis])
      }
      let px = relative(0), py = relative(1), pz = relative(2)
      return (px + pz * shearX, py + pz * shearY, pz * scaleZ)
    }
    let a = sheared(0), b = sheared(1), c = sheared(2)
    let u = c.x * b.y - c.y * b.x
    let v = a.x * c.y - a.y * c.x
    let w = b.x * a.y - b.y * a.x
    // Lanes whose edge functions do not have mixed signs: few, usually none.
    let lowest = Lanes.min(Lanes.min(u, v), w), highest = Lanes.max(Lanes.max(u, v), w)
    let mixed = Lanes.below(lowest, .zero) & Lanes.below(.zero, highest)
    var candidates = ~mixed & 0b1111
    var best: (lane: Int, t: Double, u: Double, v: Double)? = nil
    var tFar = tMax
    while candidates != 0 {
      let lane = candidates.trailingZeroBitCount
      candidates &= candidates - 1
      let ul = u[lane], vl = v[lane], wl = w[lane]
      let det = ul + vl + wl
      if det == 0 { continue }
      let tScaled = ul * a.z[lane] + vl * b.z[lane] + wl * c.z[lane]
      if det > 0 {
        if tScaled < tMin * det || tScaled > tFar * det { continue }
      } else {
        if tScaled > tMin * det || tScaled < tFar * det { continue }
      }
      let inverse = 1 / det
      best = (lane, tScaled * inverse, vl * inverse, wl * inverse)
      tFar = tScaled * inverse
    }
    return best
  }

  /// p·r summed in a fixed order (x, y, z), so the same vertex always rounds the same way.
  @inlinable @inline(__always)
  static func dot(_ p: SIMD3<Double>, _ r: SIMD3<Double>) -> Double { (p.x * r.x + p.y * r.y) + p.z * r.z }
}
