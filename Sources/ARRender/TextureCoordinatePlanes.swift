import ARMath

/// A triangle's texture coordinates and mip level as functions of the sample offset, for a
/// texture of `size` texels per unit of uv.
///
/// A coordinate is `N/D`, with `N = Σ uᵢqᵢ` and `D = Σ qᵢ` both linear in screen space, so one
/// reciprocal a sample gives it. Its screen-space derivatives are `(N'·D − N·D')/D²`, whose
/// numerator along x is linear in the row alone and along y in the column alone. The level is
/// ``mipLevel(footprint:)`` of the footprint's longer side squared, in texels, from these exact
/// derivatives.
struct TextureCoordinatePlanes {
  let d0: Float, dx: Float, dy: Float
  let nu0: Float, ux: Float, uy: Float, nv0: Float, vx: Float, vy: Float
  /// Derivative numerators in texels: along x `first + row · growth`, along y
  /// `first + column · growth` (the two growths are opposite).
  let dux0: Float, dvx0: Float, duy0: Float, dvy0: Float, uGrowth: Float, vGrowth: Float
  /// Whether the texture is magnified at every sample of the triangle in the planes' extent, so
  /// that every level is 0 and need not be computed (see ``magnifiedEverywhere(_:)``).
  private(set) var magnified = false
  /// Whether the texture is sampled with coordinates wrapped in integers (see
  /// ``TextureView/wrapsInIntegers(us:vs:)``).
  let inIntegers: Bool

  /// The planes of a triangle whose vertices have texture coordinates `us`, `vs`, for
  /// `texture`.
  init(us: SIMD3<Float>, vs: SIMD3<Float>, texture: TextureView, planes: PerspectivePlanes) {
    self.init(
      us: us, vs: vs, size: texture.texelsPerUV, inIntegers: texture.wrapsInIntegers(us: us, vs: vs),
      planes: planes)
  }

  /// The planes of a triangle whose vertices have texture coordinates `us`, `vs`, for a
  /// texture of `size` texels per unit of uv.
  init(us: SIMD3<Float>, vs: SIMD3<Float>, size: SIMD2<Float>, inIntegers: Bool, planes: PerspectivePlanes) {
    self.inIntegers = inIntegers
    let q0 = planes.q0
    (dx, dy, d0) = (planes.stepSums.x, planes.stepSums.y, q0.sum())
    (nu0, nv0) = ((us * q0).sum(), (vs * q0).sum())
    (ux, vx) = ((us * planes.stepX).sum(), (vs * planes.stepX).sum())
    (uy, vy) = ((us * planes.stepY).sum(), (vs * planes.stepY).sum())
    (dux0, dvx0) = ((ux * d0 - nu0 * dx) * size.x, (vx * d0 - nv0 * dx) * size.y)
    (duy0, dvy0) = ((uy * d0 - nu0 * dy) * size.x, (vy * d0 - nv0 * dy) * size.y)
    (uGrowth, vGrowth) = ((uy * dx - ux * dy) * size.x, (vy * dx - vx * dy) * size.y)
    magnified = magnifiedEverywhere(planes)
  }

  /// Whether the footprint is below one texel at every sample of the triangle inside the
  /// planes' extent, with a margin beyond ``at(x:y:)``'s rounding.
  ///
  /// A derivative is its numerator over `D²`. Each numerator is linear in the row or in the
  /// column alone, so over the extent it is largest at an end. `D` is linear, so it is least at
  /// a corner of the extent or, inside the triangle, at a vertex: the larger of the two is a
  /// lower bound. Each value is widened by what its evaluation in `Float` may be off, as
  /// cancelling terms leave it.
  private func magnifiedEverywhere(_ planes: PerspectivePlanes) -> Bool {
    let (i, j) = (Double(planes.extent.x), Double(planes.extent.y))
    let (d0, dx, dy) = (Double(self.d0), Double(self.dx), Double(self.dy))
    let corners = Swift.min(Swift.min(d0, d0 + dx * i), Swift.min(d0 + dy * j, d0 + dx * i + dy * j))
    // Rounding of D in Float: of the three planes' terms and their sums (a few ulps each).
    let q = planes.q0, sx = planes.stepX, sy = planes.stepY
    let magnitude =
      Double(abs(q.x) + abs(q.y) + abs(q.z)) + Double(abs(sx.x) + abs(sx.y) + abs(sx.z)) * i
      + Double(abs(sy.x) + abs(sy.y) + abs(sy.z)) * j
    let smallest = Swift.max(corners, Double(planes.smallestSum)) - 0x1p-19 * magnitude
    guard smallest > 0 else { return false }
    func largest(_ first: Float, _ growth: Float, _ to: Double) -> Double {
      let (a, g) = (Double(first), Double(growth))
      return (Swift.max(abs(a), abs(a + g * to)) + 0x1p-20 * (abs(a) + abs(g) * to)) / smallest / smallest
    }
    let ux = largest(dux0, -uGrowth, j), vx = largest(dvx0, -vGrowth, j)
    let uy = largest(duy0, uGrowth, i), vy = largest(dvy0, vGrowth, i)
    let footprint = Swift.max(ux * ux + vx * vx, uy * uy + vy * vy)
    return footprint < 0.99  // false for NaN
  }

  /// The coordinates at four samples' offsets `(x, y)`, as ``at(x:y:)`` gives them.
  @inline(__always)
  func uv(x i: SIMD4<Float>, y j: SIMD4<Float>) -> (u: SIMD4<Float>, v: SIMD4<Float>) {
    let r = 1 / (d0 + dx * i + dy * j)
    return ((nu0 + ux * i + uy * j) * r, (nv0 + vx * i + vy * j) * r)
  }

  /// The coordinates and level at four samples' offsets `(x, y)`; NaN levels become 0.
  @inline(__always)
  func at(x i: SIMD4<Float>, y j: SIMD4<Float>) -> (
    u: SIMD4<Float>, v: SIMD4<Float>, level: SIMD4<Float>
  ) {
    let r = 1 / (d0 + dx * i + dy * j)
    // Each derivative scaled before it is squared: `q` runs to 10¹² and more, so r⁴ would fall
    // into the subnormals (slow, and imprecise).
    let r2 = r * r
    let ux = (dux0 - uGrowth * j) * r2, vx = (dvx0 - vGrowth * j) * r2
    let uy = (duy0 + uGrowth * i) * r2, vy = (dvy0 + vGrowth * i) * r2
    let x2 = ux * ux + vx * vx, y2 = uy * uy + vy * vy
    let level = mipLevel(footprint: LaneMath.larger(x2, y2))
    return ((nu0 + self.ux * i + self.uy * j) * r, (nv0 + self.vx * i + self.vy * j) * r, level)
  }
}
