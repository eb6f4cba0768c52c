import ARMath

/// The part of a ``WatertightRay`` that packet tests need: the ray's shear by axis, which takes
/// a point into the frame where the ray runs along +z from the origin (Woop, Benthin and Wald,
/// "Watertight Ray/Triangle Intersection", JCGT 2013).
///
/// x′ = p[kx] + p[kz]·shearX, y′ = p[ky] + p[kz]·shearY, z′ = p[kz]·scaleZ, for p relative to
/// the origin. The traversal keeps one per ray in flight, without the row form the single
/// triangle test uses: preparing and copying both was a tenth of a short ray's cost.
@usableFromInline
struct RayShear: Sendable {
  /// kx, ky, kz: the axes that become x, y and z (kz is the direction's dominant axis).
  @usableFromInline let axes: SIMD3<Int>
  /// The origin's coordinates on axes kx, ky, kz.
  @usableFromInline let axisOrigin: SIMD3<Double>
  @usableFromInline let shearX: Double, shearY: Double, scaleZ: Double

  @usableFromInline
  init(_ ray: HitRay) {
    let d = ray.direction
    let ad = SIMD3(abs(d.x), abs(d.y), abs(d.z))
    // The dominant axis becomes z; swap x and y to keep the frame's handedness (winding).
    let kz = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2)
    var kx = kz == 2 ? 0 : kz + 1
    var ky = kx == 2 ? 0 : kx + 1
    let dz = Self.component(d, kz)
    if dz < 0 { swap(&kx, &ky) }
    shearX = -(Self.component(d, kx) / dz)
    shearY = -(Self.component(d, ky) / dz)
    scaleZ = 1 / dz
    axes = SIMD3(kx, ky, kz)
    let o = ray.origin
    axisOrigin = SIMD3(Self.component(o, kx), Self.component(o, ky), Self.component(o, kz))
  }

  /// `v[axis]` by selects (stores into vector lanes at run-time indices, and the loads after
  /// them, stalled on store forwarding).
  @inline(__always)
  static func component(_ v: SIMD3<Double>, _ axis: Int) -> Double {
    axis == 0 ? v.x : (axis == 1 ? v.y : v.z)
  }

  /// The first hit of the ray with the four triangles of a ``LeafTriangles`` packet at
  /// `packet`, in `tMin...tMax`, that comes before `best` (a hit parameter and triangle index):
  /// the lane, and the hit as ``WatertightRay/intersect(_:_:_:tMin:tMax:)`` gives it, bit for
  /// bit. Hits are ordered by parameter, then by triangle index, so the closest hit of a query
  /// is the same whatever order its leaves are tested in (the AVX2 kernel walks another tree).
  @inlinable @inline(__always)
  func intersect<S: LeafScalar>(
    packet: UnsafePointer<S>, tMin: Double, tMax: Double, before best: (t: Double, triangle: Int)
  ) -> (lane: Int, t: Double, u: Double, v: Double)? {
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
    let lowest = LaneMath.min(LaneMath.min(u, v), w), highest = LaneMath.max(LaneMath.max(u, v), w)
    let mixed = LaneMath.below(lowest, .zero) & LaneMath.below(.zero, highest)
    var candidates = ~mixed & 0b1111
    var first: (lane: Int, t: Double, u: Double, v: Double)? = nil
    var (bestT, bestTriangle) = best
    while candidates != 0 {
      let lane = candidates.trailingZeroBitCount
      candidates &= candidates - 1
      let ul = u[lane], vl = v[lane], wl = w[lane]
      let det = ul + vl + wl
      if det == 0 { continue }
      let tScaled = ul * a.z[lane] + vl * b.z[lane] + wl * c.z[lane]
      if det > 0 {
        if tScaled < tMin * det || tScaled > tMax * det { continue }
      } else {
        if tScaled > tMin * det || tScaled < tMax * det { continue }
      }
      let inverse = 1 / det
      let t = tScaled * inverse
      let triangle = packet[LeafTriangles.indexOffset + lane].triangleIndex
      guard t < bestT || (t == bestT && triangle < bestTriangle) else { continue }
      first = (lane, t, vl * inverse, wl * inverse)
      (bestT, bestTriangle) = (t, triangle)
    }
    return first
  }
}
