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
  /// Samples a batch holds: a tile's width.
  static let capacity = 64
  /// The number of 4-byte arrays below.
  static let arrays = 12

  /// Each sample's offset in samples from the batch's origin (the triangle's first sample
  /// column and row in the tile).
  let dx: UnsafeMutablePointer<Float>, dy: UnsafeMutablePointer<Float>
  /// Each sample's depth, and its index in the tile's colour and depth buffers.
  let z: UnsafeMutablePointer<Float>
  let colorIndex: UnsafeMutablePointer<Int32>, depthIndex: UnsafeMutablePointer<Int32>
  /// Vertex weights (they sum to 1) at each sample; filled by the shaders that read them.
  let w0: UnsafeMutablePointer<Float>, w1: UnsafeMutablePointer<Float>, w2: UnsafeMutablePointer<Float>
  /// `1 / Σq` at each sample (`q`: the edge functions times 1/w, linear in screen space).
  let reciprocal: UnsafeMutablePointer<Float>
  /// Filled by the shader when it samples a texture: the texture coordinates and the texture's
  /// mip level (fractional, 0 for magnification) at each sample.
  let u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>, level: UnsafeMutablePointer<Float>
  /// `q`'s change per sample step in x and y, and their sums: constant over the triangle.
  var stepX: SIMD3<Float> = .zero, stepY: SIMD3<Float> = .zero, stepSums: SIMD2<Float> = .zero
  /// `q` at the origin.
  var q0: SIMD3<Float> = .zero

  /// Filled by the shader when it samples a texture: the filtered texel at each sample (linear
  /// colour and alpha).
  let texel: UnsafeMutablePointer<SIMD4<Float>>
  /// The shaded colour of each sample (straight alpha), or ``discarded``.
  let color: UnsafeMutablePointer<SIMD4<Float>>
  /// The colour of a sample the shader discarded: negative alpha.
  static let discarded = SIMD4<Float>(0, 0, 0, -1)

  /// The bytes a batch's arrays take, 16-byte aligned.
  static let storageBytes = capacity * (arrays + 8) * 4

  /// Carves the arrays out of `storage`: ``storageBytes`` bytes, 16-byte aligned.
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
  }

  /// Fills the weights of the first `count` samples: `q = q0 + dx·stepX + dy·stepY`, normalised.
  @inline(__always)
  func fillWeights(count: Int) {
    let (a0, b0, c0) = (q0.x, q0.y, q0.z)
    let (ax, bx, cx) = (stepX.x, stepX.y, stepX.z), (ay, by, cy) = (stepY.x, stepY.y, stepY.z)
    for k in 0..<count {
      let (i, j) = (dx[k], dy[k])
      let a = a0 + ax * i + ay * j, b = b0 + bx * i + by * j, c = c0 + cx * i + cy * j
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

  /// Fills `u`, `v` and `level` for the first `count` samples of a triangle whose vertices have
  /// texture coordinates `us`, `vs`, for a texture of `size` texels (scale included). Needs no
  /// weights.
  ///
  /// A coordinate is `N/D`, with `N = Σ uᵢqᵢ` and `D = Σ qᵢ` both linear in screen space, so one
  /// reciprocal a sample gives it. Its screen-space derivatives are `(N'·D − N·D')/D²`, whose
  /// numerator along x is linear in the row alone and along y in the column alone. The level is
  /// ½·log2 of the footprint's longer side squared, in texels, from these exact derivatives;
  /// log2 is ``roughLog2(_:)``: the level only needs to be roughly right.
  @inline(__always)
  func fillTextureCoordinates(us: SIMD3<Float>, vs: SIMD3<Float>, size: SIMD2<Float>, count: Int) {
    let (sx, sy) = (stepSums.x, stepSums.y), d0 = q0.sum()
    let nu0 = (us * q0).sum(), nv0 = (vs * q0).sum()
    let ux = (us * stepX).sum(), vx = (vs * stepX).sum(), uy = (us * stepY).sum(), vy = (vs * stepY).sum()
    // Derivative numerators in texels: along x `first + row · growth`, along y
    // `first + column · growth` (the two growths are opposite).
    let dux0 = (ux * d0 - nu0 * sx) * size.x, dvx0 = (vx * d0 - nv0 * sx) * size.y
    let duy0 = (uy * d0 - nu0 * sy) * size.x, dvy0 = (vy * d0 - nv0 * sy) * size.y
    let uGrowth = (uy * sx - ux * sy), vGrowth = (vy * sx - vx * sy)
    for k in 0..<count {
      let (i, j) = (dx[k], dy[k])
      let r = 1 / (d0 + sx * i + sy * j)
      // Each derivative scaled before it is squared: `q` runs to 10¹² and more, so r⁴ would
      // fall into the subnormals (slow, and imprecise).
      let r2 = r * r
      let alongX = SIMD2(dux0 - uGrowth * size.x * j, dvx0 - vGrowth * size.y * j) * r2
      let alongY = SIMD2(duy0 + uGrowth * size.x * i, dvy0 + vGrowth * size.y * i) * r2
      let x2 = alongX.x * alongX.x + alongX.y * alongX.y, y2 = alongY.x * alongY.x + alongY.y * alongY.y
      let footprint = x2 > y2 ? x2 : y2
      // NaN fails the test and takes level 0.
      level[k] = footprint > 1 ? 0.5 * roughLog2(footprint) : 0
      u[k] = (nu0 + ux * i + uy * j) * r
      v[k] = (nv0 + vx * i + vy * j) * r
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
