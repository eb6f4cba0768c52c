/// Up to 64 samples of one triangle that passed the depth test, gathered row by row, then
/// shaded together: their perspective-correct vertex weights, what the shader derives from them
/// (texture coordinates, mip levels, texels) and the colours it gives them.
///
/// Structure of arrays, one value a sample: each pass over a batch is a short loop whose samples
/// do not wait on one another, which the compiler turns into 4-wide vector code. Shading sample
/// by sample kept some 100 values live across the texture fetch and spilled them on every pixel;
/// shading row by row paid every pass's set-up per row, most of the work for triangles of a few
/// pixels. Only samples in front of the depth buffer are gathered, so hidden ones cost no shading.
struct FragmentBatch {
  /// Samples a batch holds: a tile's width (a multiple of four: stores read its arrays four
  /// at a time, see ``SampleStore/writeOpaque(_:at:count:)``).
  static let capacity = 64
  /// The number of 4-byte arrays below.
  static let arrays = 12

  /// Each sample's offset in samples from the batch's origin (the triangle's first sample
  /// column and row in the tile).
  private(set) var dx: UnsafeMutablePointer<Float>, dy: UnsafeMutablePointer<Float>
  /// Each sample's depth, and its index in the tile's colour and depth buffers.
  let z: UnsafeMutablePointer<Float>
  private(set) var colorIndex: UnsafeMutablePointer<Int32>
  let depthIndex: UnsafeMutablePointer<Int32>
  /// Vertex weights (they sum to 1) at each sample; filled by the shaders that read them.
  let w0: UnsafeMutablePointer<Float>, w1: UnsafeMutablePointer<Float>, w2: UnsafeMutablePointer<Float>
  /// `1 / Σq` at each sample (`q`: the edge functions times 1/w, linear in screen space).
  let reciprocal: UnsafeMutablePointer<Float>
  /// Filled by the shader when it samples a texture: the texture coordinates and the texture's
  /// mip level (fractional, 0 for magnification) at each sample.
  let u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>, level: UnsafeMutablePointer<Float>
  /// `q` over the batch's triangle, from the batch's origin.
  var planes = PerspectivePlanes()

  /// Filled by the shader when it samples a texture: the filtered texel at each sample (linear
  /// colour and alpha).
  let texel: UnsafeMutablePointer<SIMD4<Float>>
  /// The shaded colour of each sample (straight alpha), or ``discarded``.
  let color: UnsafeMutablePointer<SIMD4<Float>>
  /// The colour of a sample the shader discarded: negative alpha.
  static let discarded = SIMD4<Float>(0, 0, 0, -1)
  /// The texture sampler's scratch (see
  /// ``TextureView/sample(u:v:level:count:inIntegers:scratch:tint:into:)``).
  let samplerScratch: UnsafeMutablePointer<SIMD4<Int32>>

  /// The bytes a batch's arrays take, 16-byte aligned: the 4-byte arrays, `texel` and
  /// `color`, and the sampler's scratch.
  static let storageBytes = capacity * (arrays + 8) * 4 + capacity / 4 * TextureView.scratchGroups * 16

  /// Carves the arrays out of `storage`: ``storageBytes`` bytes, 16-byte aligned, zeroed (so
  /// that the lanes past a batch's count, which the four-wide passes read, hold finite values).
  init(storage: UnsafeMutableRawPointer) {
    let c = Self.capacity
    let floats = storage.bindMemory(to: Float.self, capacity: c * 10)
    (dx, dy, z) = (floats, floats + c, floats + 2 * c)
    (w0, w1, w2, reciprocal) = (floats + 3 * c, floats + 4 * c, floats + 5 * c, floats + 6 * c)
    (u, v, level) = (floats + 7 * c, floats + 8 * c, floats + 9 * c)
    let indices = (storage + 10 * c * 4).bindMemory(to: Int32.self, capacity: 2 * c)
    (colorIndex, depthIndex) = (indices, indices + c)
    let vectors = (storage + Self.arrays * c * 4).bindMemory(to: SIMD4<Float>.self, capacity: 2 * c)
    (texel, color) = (vectors, vectors + c)
    samplerScratch = (storage + (Self.arrays + 8) * c * 4).bindMemory(
      to: SIMD4<Int32>.self, capacity: c / 4 * TextureView.scratchGroups)
  }

  /// This batch with its samples' offsets and colour indices read from elsewhere (up to
  /// ``capacity`` of each, 16-byte aligned, finite up to a multiple of four): samples listed
  /// before they are shaded need not be copied in.
  @inline(__always)
  func reading(
    dx: UnsafeMutablePointer<Float>, dy: UnsafeMutablePointer<Float>, colorIndex: UnsafeMutablePointer<Int32>
  ) -> FragmentBatch {
    var batch = self
    (batch.dx, batch.dy, batch.colorIndex) = (dx, dy, colorIndex)
    return batch
  }

  /// Stores four opaque samples of a row, side by side, from index `k`: at offsets `x` and
  /// `y`, with colour indices `colorIndices`. Their depths are written when they are
  /// gathered, and opaque batches are written without reading `z` or `depthIndex`, so those
  /// are left as they are.
  @inline(__always)
  func gatherFourOpaque(at k: Int, x: SIMD4<Float>, y: SIMD4<Float>, colorIndices: SIMD4<Int32>) {
    UnsafeMutableRawPointer(dx + k).storeBytes(of: x, as: SIMD4<Float>.self)
    UnsafeMutableRawPointer(dy + k).storeBytes(of: y, as: SIMD4<Float>.self)
    UnsafeMutableRawPointer(colorIndex + k).storeBytes(of: colorIndices, as: SIMD4<Int32>.self)
  }

  /// Fills the weights of the first `count` samples (four at a time: the arrays have room).
  @inline(__always)
  func fillWeights(count: Int) {
    var k = 0
    while k < count {
      let (a, b, c, r) = planes.weights(x: Self.four(dx, k), y: Self.four(dy, k))
      Self.store(a, w0, k)
      Self.store(b, w1, k)
      Self.store(c, w2, k)
      Self.store(r, reciprocal, k)
      k &+= 4
    }
  }

  @inline(__always) private static func four(_ p: UnsafeMutablePointer<Float>, _ k: Int) -> SIMD4<Float> {
    UnsafeRawPointer(p + k).load(as: SIMD4<Float>.self)
  }

  @inline(__always)
  private static func store(_ value: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>, _ k: Int) {
    UnsafeMutableRawPointer(p + k).storeBytes(of: value, as: SIMD4<Float>.self)
  }

  /// The weights of sample `k`, with their derivatives.
  @inline(__always)
  func weights(_ k: Int) -> Weights {
    Weights(
      here: SIMD3(w0[k], w1[k], w2[k]), reciprocal: reciprocal[k], stepX: planes.stepX,
      stepY: planes.stepY, stepSums: planes.stepSums)
  }

  /// Fills `texel` (or `out`, tinted, see ``TexelTint``) for the first `count` samples from
  /// `texture`, through a triangle's texture coordinate planes (filling `u`, `v` and `level`
  /// on the way).
  @inline(__always)
  func sample(
    _ texture: TextureView, _ coordinates: TextureCoordinatePlanes, count: Int, tint: TexelTint = .none,
    into out: UnsafeMutablePointer<SIMD4<Float>>? = nil
  ) {
    fillTextureCoordinates(coordinates, count: count)
    texture.sample(
      u: u, v: v, level: coordinates.magnified ? nil : level, count: count,
      inIntegers: coordinates.inIntegers, scratch: samplerScratch, tint: tint, into: out ?? texel)
  }

  /// Fills `u`, `v` and (unless the triangle is ``TextureCoordinatePlanes/magnified``)
  /// `level` for the first `count` samples (four at a time: the arrays have room) from a
  /// triangle's texture coordinate planes.
  @inline(__always)
  private func fillTextureCoordinates(_ coordinates: TextureCoordinatePlanes, count: Int) {
    var k = 0
    if coordinates.magnified {
      while k < count {
        let (u, v) = coordinates.uv(x: Self.four(dx, k), y: Self.four(dy, k))
        Self.store(u, self.u, k)
        Self.store(v, self.v, k)
        k &+= 4
      }
      return
    }
    while k < count {
      let (u, v, level) = coordinates.at(x: Self.four(dx, k), y: Self.four(dy, k))
      Self.store(u, self.u, k)
      Self.store(v, self.v, k)
      Self.store(level, self.level, k)
      k &+= 4
    }
  }
}

/// `q`, the three edge functions times 1/w, over a triangle: linear in screen space, so
/// `q = q0 + x·stepX + y·stepY` at sample offset `(x, y)` from an origin; normalised, `q`
/// weighs the vertices perspective-correctly.
struct PerspectivePlanes {
  /// `q` at the origin.
  var q0: SIMD3<Float> = .zero
  /// `q`'s change per sample step in x and y, and their sums.
  var stepX: SIMD3<Float> = .zero, stepY: SIMD3<Float> = .zero, stepSums: SIMD2<Float> = .zero
  /// The largest offsets of the samples drawn with these planes: every one lies in
  /// `[0, extent.x] × [0, extent.y]`.
  var extent: SIMD2<Float> = .zero
  /// `Σq`'s least value over the triangle, for bounds: `Σq` is linear, so it is the value at a
  /// vertex, where one edge function is twice the area and the others 0.
  var smallestSum: Float = 0

  /// The vertex weights (`q` normalised) at four samples' offsets `(x, y)`, and `1 / Σq`.
  @inline(__always)
  func weights(x: SIMD4<Float>, y: SIMD4<Float>) -> (
    SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, reciprocal: SIMD4<Float>
  ) {
    let a = q0.x + stepX.x * x + stepY.x * y, b = q0.y + stepX.y * x + stepY.y * y
    let c = q0.z + stepX.z * x + stepY.z * y
    let r = 1 / (a + b + c)
    return (a * r, b * r, c * r, r)
  }
}

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

/// Perspective-correct vertex weights at a sample centre, and how they change from one sample
/// to the next: the screen-space derivatives that size a texture's footprint.
///
/// The weights are `q / Σq` with `q` (the edge functions times 1/w) linear in screen space, so
/// their derivatives are exact: `∂(q/Σq)/∂x = (∂q/∂x − here · Σ∂q/∂x) / Σq`.
struct Weights {
  /// The three vertices' weights at the sample (they sum to 1).
  let here: SIMD3<Float>
  /// `1 / Σq` at the sample.
  let reciprocal: Float
  /// `q`'s change per sample step in x and in y.
  let stepX: SIMD3<Float>, stepY: SIMD3<Float>
  /// `Σ stepX` and `Σ stepY`.
  let stepSums: SIMD2<Float>

  /// The weights' change per sample step to the right.
  @inline(__always) var dx: SIMD3<Float> { (stepX - here * stepSums.x) * reciprocal }
  /// The weights' change per sample step down.
  @inline(__always) var dy: SIMD3<Float> { (stepY - here * stepSums.y) * reciprocal }
}

/// The mip level, lane by lane, of footprints whose longer side squared is `footprint` texels²:
/// ½·log2 of it, 0 where it is at most 1 (magnified) or NaN. The log2 is read off the bits: the
/// exponent plus the mantissa taken as linear (exact at powers of two, at most 0.086 low
/// between), enough to pick a level, and no library call.
@inline(__always)
func mipLevel(footprint: SIMD4<Float>) -> SIMD4<Float> {
  let log2 = LaneMath.float(unsafeBitCast(footprint, to: SIMD4<Int32>.self)) * 0x1p-23 - 127
  return LaneMath.masked(0.5 * log2, LaneMath.greaterMask(footprint, SIMD4(repeating: 1)))
}
