import ARMath

/// A screen-space triangle ready to rasterize: vertices in fixed point, the values interpolated
/// across it, and where its vertices' attributes live.
///
/// Kept small (112 bytes) on purpose: a frame of small triangles is mostly this record, written
/// once by setup, read by binning and by every tile the triangle touches. The attributes stay in
/// the frame's vertex buffers (see ``FrameVertices``) and are fetched once per triangle and tile.
struct SetupTriangle {
  /// Sub-pixel precision: 8 bits, so positions snap to 1/256 pixel, as GPUs do.
  static let subpixelBits: Int64 = 8
  static let one: Int64 = 1 << subpixelBits

  /// Fixed-point vertex positions (samples × 256, y down). The largest target (16384 × 8
  /// samples a side) needs 2²⁵, so 32 bits hold them; edge functions are evaluated in 64 bits.
  var x: SIMD3<Int32>, y: SIMD3<Int32>
  /// Reversed NDC depth (−near/distance; see ``RenderCamera``) and 1/w of the three vertices.
  var z: SIMD3<Float>, inverseW: SIMD3<Float>
  /// Indices of the three vertices in the frame's vertex buffers (``FrameVertices``), in the
  /// order rasterized (after setup's swap).
  var vertex: SIMD3<Int32>
  /// Sample bounding box, inclusive, clamped to the target.
  var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
  /// The reciprocal of twice the signed area in fixed point (the area is > 0 after setup).
  var inverseArea: Float
  /// Index of the draw call and of its material.
  var draw: Int32, material: Int32
  /// The setup batch whose clipped vertices this triangle may use (see ``FrameVertices``).
  var batch: UInt16
  /// Bit k: edge k is neither left nor bottom, so the fill rule excludes samples on it (see
  /// ``bias``).
  private var exclusiveEdges: UInt8
  private var flags: UInt8

  /// Whether the triangle faces away from the camera (drawn only when culling is off).
  var backFacing: Bool { flags & 1 != 0 }
  /// Whether setup swapped v1 and v2 to make the area positive (front faces).
  var swapped: Bool { flags & 2 != 0 }

  /// No sample of the triangle, in any tile, has a depth below this: its nearest vertex's, less
  /// what computing a sample's depth may round off. What the hidden test compares a tile's
  /// depths with (see ``Renderer/isHidden(_:tileX:tileY:in:strictly:)``).
  ///
  /// A tile computes a sample's depth from its box's first sample, within a few float steps of
  /// the size of the terms summed, |depth there| + |slopes| × box extent + |vertex depths|, 2⁻¹⁹
  /// of it (see ``TileTriangle``). Every box lies in the triangle's, where the plane's size is
  /// at most the vertices' depths plus the slopes times the box's extent and a sample (from a
  /// vertex to the farthest sample): twice that bounds what any tile may round off.
  @inline(__always)
  var nearest: Float {
    // The slopes per sample step as the tiles compute them, from the edges' differences (edge
    // k from vertex k+1 to k+2; within 32 bits, as the positions are within 2²⁵).
    let zWeights = z * (inverseArea * Float(Self.one))
    let edgeX = SIMD3<Float>(SIMD3(x.z, x.x, x.y) &- SIMD3(x.y, x.z, x.x))
    let edgeY = SIMD3<Float>(SIMD3(y.z, y.x, y.y) &- SIMD3(y.y, y.z, y.x))
    let slopes = SIMD2(abs((edgeY * zWeights).sum()), abs((edgeX * zWeights).sum()))
    let extent = SIMD2(Float(maxX &- minX &+ 2), Float(maxY &- minY &+ 2))
    let (zMin, zMax) = (LaneMath.least(z), LaneMath.greatest(z))
    return zMin - 0x1p-18 * (2 * Swift.max(abs(zMin), abs(zMax)) + (slopes * extent).sum())
  }

  /// Sets up the triangle `a b c` (clip positions, counter-clockwise = front) whose vertices have
  /// indices `indices` in the frame's buffers, or returns `nil` when it covers no sample centre's
  /// neighbourhood (zero area, off the target) or is culled.
  @inline(__always)
  init?(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, indices: SIMD3<Int32>, width: Int, height: Int,
    cullBackFaces: Bool, draw: Int32, material: Int32, batch: UInt16
  ) {
    // Perspective divide and viewport: NDC x −1…1 → 0…width, y 1…−1 → 0…height (y down).
    let w = SIMD3(a.w, b.w, c.w)
    let iw = 1 / w
    let sx = (SIMD3(a.x, b.x, c.x) * iw + 1) * (0.5 * Float(width) * Float(Self.one))
    let sy = (1 - SIMD3(a.y, b.y, c.y) * iw) * (0.5 * Float(height) * Float(Self.one))
    var x = Self.snap(sx), y = Self.snap(sy)
    var z = SIMD3(a.z, b.z, c.z) * iw
    var inverseW = iw
    var vertex = indices
    var area = (x.y - x.x) * (y.z - y.x) - (y.y - y.x) * (x.z - x.x)
    guard area != 0 else { return nil }
    // Counter-clockwise in NDC (y up) is clockwise in y-down pixels, where this edge function is
    // negative: front faces have area < 0. Rasterization wants area > 0, so front faces swap two
    // vertices (`swapped` remembers it for the face normal).
    let backFacing = area > 0
    if backFacing && cullBackFaces { return nil }
    let swapped = area < 0
    if swapped {
      x = SIMD3(x.x, x.z, x.y)
      y = SIMD3(y.x, y.z, y.y)
      z = SIMD3(z.x, z.z, z.y)
      inverseW = SIMD3(inverseW.x, inverseW.z, inverseW.y)
      vertex = SIMD3(vertex.x, vertex.z, vertex.y)
      area = -area
    }
    // Sample centres (i + 0.5) inside the fixed-point bounding box.
    let half = Self.one / 2
    let minX = Swift.max(0, (x.min() - half + Self.one - 1) >> Self.subpixelBits)
    let minY = Swift.max(0, (y.min() - half + Self.one - 1) >> Self.subpixelBits)
    let maxX = Swift.min(Int64(width - 1), (x.max() - half) >> Self.subpixelBits)
    let maxY = Swift.min(Int64(height - 1), (y.max() - half) >> Self.subpixelBits)
    guard minX <= maxX, minY <= maxY else { return nil }
    // Edge k runs from vertex k+1 to k+2 (edge 0: v1→v2, 1: v2→v0, 2: v0→v1). With positive
    // area, a bottom edge is horizontal going left (dy = 0, dx < 0) and a left edge goes up
    // (dy < 0).
    // As sign bits, not compares: with `||` and `&&`, or with compares combined as bits, the
    // compiler branched on `dy < 0`, and the branch went either way.
    func exclusive(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> UInt8 {
      let dx = bx &- ax, dy = by &- ay
      let left = UInt64(bitPattern: dy) >> 63  // dy < 0
      let horizontal = (UInt64(bitPattern: dy | (0 &- dy)) >> 63) ^ 1  // dy == 0
      let leftward = UInt64(bitPattern: dx) >> 63  // dx < 0
      return UInt8(truncatingIfNeeded: 1 &- (left | horizontal & leftward))
    }
    self.x = SIMD3(truncatingIfNeeded: x)
    self.y = SIMD3(truncatingIfNeeded: y)
    self.z = z
    self.inverseW = inverseW
    self.vertex = vertex
    self.minX = Int32(minX)
    self.minY = Int32(minY)
    self.maxX = Int32(maxX)
    self.maxY = Int32(maxY)
    inverseArea = 1 / Float(area)
    self.draw = draw
    self.material = material
    self.batch = batch
    exclusiveEdges =
      exclusive(x.y, y.y, x.z, y.z) | exclusive(x.z, y.z, x.x, y.x) << 1 | exclusive(x.x, y.x, x.y, y.y) << 2
    flags = (backFacing ? 1 : 0) | (swapped ? 2 : 0)
  }

  /// Screen positions in 1/256 sample rounded to the nearest integer (ties to even), all three
  /// in one instruction. Clipping keeps them within the target, far inside `Int32`; snapping
  /// them one by one with Swift's checked conversions was a fifth of triangle setup.
  @inline(__always)
  static func snap(_ v: SIMD3<Float>) -> SIMD3<Int64> {
    let r = LaneMath.rounded(SIMD4(v, 0))
    return SIMD3(truncatingIfNeeded: SIMD3(r.x, r.y, r.z))
  }

  /// Per edge, what is added to its function before the coverage test: 0 for left and bottom
  /// edges, −1 otherwise, so that a sample exactly on a shared edge belongs to one triangle.
  ///
  /// This is OpenGL's top-left rule as GL implementations apply it in their bottom-up rows (the
  /// top of a GL framebuffer's memory is the image's bottom), so that an image matches a GL
  /// render pixel for pixel even where an edge runs exactly through sample centres: in our
  /// top-down pixels, left and bottom edges are inclusive. (Direct3D's rule in top-down pixels,
  /// left and top, hands a centre on a horizontal edge to the triangle below it instead; Mesa's
  /// llvmpipe gives it to the one above, as `Tools/crosscheck-llvmpipe` checks triangle by
  /// triangle.)
  @inline(__always)
  var bias: SIMD3<Int64> {
    let bits = Int64(exclusiveEdges)
    return SIMD3(-(bits & 1), -((bits >> 1) & 1), -((bits >> 2) & 1))
  }
}
