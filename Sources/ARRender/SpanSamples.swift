/// The perspective-correct vertex weights of a run of samples along one row of a triangle (a
/// span), computed for the whole span at once before any sample is shaded, plus what the
/// shader derives from them for the whole span (texture coordinates, mip levels, texels) and
/// the colours it gives them.
///
/// Structure of arrays, one `Float` a sample: the passes over a span are plain loops over
/// these arrays, which the compiler turns into 4-wide vector code. The same arithmetic done
/// sample by sample inside the shader kept some 100 values live across the texture fetch and
/// spilled them to the stack on every pixel.
struct SpanSamples {
  /// Samples a span can hold: the widest tile.
  static let capacity = 64
  /// The number of `Float` arrays below.
  static let arrays = 7

  /// Vertex weights (they sum to 1) at each sample.
  let w0: UnsafeMutablePointer<Float>, w1: UnsafeMutablePointer<Float>, w2: UnsafeMutablePointer<Float>
  /// `1 / Σq` at each sample (`q`: the edge functions times 1/w, linear in screen space).
  let reciprocal: UnsafeMutablePointer<Float>
  /// Filled by the shader when it samples a texture: the texture coordinates and
  /// the texture's mip level (fractional, 0 for magnification) at each sample.
  let u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>, level: UnsafeMutablePointer<Float>
  /// `q`'s change per sample step in x and y, and their sums: constant over the triangle.
  var stepX: SIMD3<Float> = .zero, stepY: SIMD3<Float> = .zero, stepSums: SIMD2<Float> = .zero
  /// `q` at the span's first sample.
  var q0: SIMD3<Float> = .zero

  /// Filled by the shader when it samples a texture: the filtered texel at each
  /// sample (linear colour and alpha).
  let texel: UnsafeMutablePointer<SIMD4<Float>>
  /// The shaded colour of each sample (straight alpha), or ``discarded``.
  let color: UnsafeMutablePointer<SIMD4<Float>>
  /// The colour of a sample the shader discarded: negative alpha.
  static let discarded = SIMD4<Float>(0, 0, 0, -1)

  /// The bytes a span's arrays take, 16-byte aligned.
  static let storageBytes = capacity * (arrays + 8) * MemoryLayout<Float>.stride

  /// Carves the arrays out of `storage`: ``storageBytes`` bytes, 16-byte aligned.
  init(storage: UnsafeMutableRawPointer) {
    let c = Self.capacity
    let floats = storage.bindMemory(to: Float.self, capacity: c * Self.arrays)
    (w0, w1, w2, reciprocal) = (floats, floats + c, floats + 2 * c, floats + 3 * c)
    (u, v, level) = (floats + 4 * c, floats + 5 * c, floats + 6 * c)
    let vectors = (storage + c * Self.arrays * MemoryLayout<Float>.stride).bindMemory(
      to: SIMD4<Float>.self, capacity: 2 * c)
    (texel, color) = (vectors, vectors + c)
  }

  /// Fills the weights of `count` samples, the first with unnormalised weights ``q0``, each
  /// next one ``stepX`` further.
  @inline(__always)
  func fillWeights(count: Int) {
    let (a0, b0, c0) = (q0.x, q0.y, q0.z)
    let (da, db, dc) = (stepX.x, stepX.y, stepX.z)
    for k in 0..<count {
      let s = Float(k)
      let a = a0 + da * s, b = b0 + db * s, c = c0 + dc * s
      let r = 1 / (a + b + c)
      w0[k] = a * r
      w1[k] = b * r
      w2[k] = c * r
      reciprocal[k] = r
    }
  }

  /// The weights of sample `k`, with their derivatives.
  @inline(__always)
  func weights(_ k: Int) -> Weights {
    Weights(
      here: SIMD3(w0[k], w1[k], w2[k]), reciprocal: reciprocal[k], stepX: stepX, stepY: stepY,
      stepSums: stepSums)
  }

  /// Fills `u`, `v` and `level` for `count` samples of a triangle whose vertices have texture
  /// coordinates `us`, `vs`, for a texture of `size` texels (scale included). Needs no weights.
  ///
  /// A coordinate is `N/D`, with `N = Σ uᵢqᵢ` and `D = Σ qᵢ` both linear along the span, so one
  /// reciprocal a sample gives it. Its screen-space derivatives are `(N'·D − N·D')/D²`; along x
  /// the numerator is constant over the span, along y linear. The level is ½·log2 of the
  /// footprint's longer side squared, in texels, from these exact derivatives; log2 is
  /// ``roughLog2(_:)``: the level only needs to be roughly right.
  @inline(__always)
  func fillTextureCoordinates(us: SIMD3<Float>, vs: SIMD3<Float>, size: SIMD2<Float>, count: Int) {
    let (sx, sy) = (stepSums.x, stepSums.y), d0 = q0.sum()
    let nu0 = (us * q0).sum(), nv0 = (vs * q0).sum()
    let ux = (us * stepX).sum(), vx = (vs * stepX).sum(), uy = (us * stepY).sum(), vy = (vs * stepY).sum()
    // Derivative numerators in texels: along x constant, along y `first + i · growth`.
    let dux = (ux * d0 - nu0 * sx) * size.x, dvx = (vx * d0 - nv0 * sx) * size.y
    let duy0 = (uy * d0 - nu0 * sy) * size.x, dvy0 = (vy * d0 - nv0 * sy) * size.y
    let duyGrowth = (uy * sx - ux * sy) * size.x, dvyGrowth = (vy * sx - vx * sy) * size.y
    for k in 0..<count {
      let i = Float(k)
      let r = 1 / (d0 + sx * i)
      // Each derivative scaled before it is squared: `q` runs to 10¹² and more, so r⁴ would
      // fall into the subnormals (slow, and imprecise).
      let r2 = r * r
      let dx = SIMD2(dux, dvx) * r2, dy = SIMD2(duy0 + duyGrowth * i, dvy0 + dvyGrowth * i) * r2
      let alongX = dx.x * dx.x + dx.y * dx.y, alongY = dy.x * dy.x + dy.y * dy.y
      let footprint = alongX > alongY ? alongX : alongY
      // NaN fails the test and takes level 0.
      level[k] = footprint > 1 ? 0.5 * roughLog2(footprint) : 0
      u[k] = (nu0 + ux * i) * r
      v[k] = (nv0 + vx * i) * r
    }
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

/// log2 of a positive, finite `x` read off its bits: the exponent plus the mantissa taken as
/// linear (exact at powers of two, at most 0.086 low between). Enough to pick a mip level, and
/// no library call (`Float.exponent` and `significand` are two), so loops around it vectorise.
@inline(__always)
func roughLog2(_ x: Float) -> Float {
  Float(Int32(truncatingIfNeeded: x.bitPattern)) * 0x1p-23 - 127
}
