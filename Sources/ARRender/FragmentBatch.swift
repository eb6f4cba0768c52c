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
