import ARMath

/// A triangle's part in one tile: its sample box there, its edge functions from the box's first
/// sample, and its depth plane. What every pass over the triangle's samples in the tile starts
/// from, so that each computes the same values (the depth written when samples are marked
/// visible is the depth the samples are shaded with).
struct TileTriangle {
  /// The samples of the triangle's bounding box inside the tile (frame sample coordinates,
  /// inclusive).
  let minX: Int, maxX: Int, minY: Int, maxY: Int
  /// The edge functions at the box's first sample centre, and their change per sample step.
  let originEdges: SIMD3<Int64>
  let stepX: SIMD3<Int64>, stepY: SIMD3<Int64>
  /// What the fill rule (``SetupTriangle/bias``) adds to each edge function before the coverage test.
  let bias: SIMD3<Int64>
  /// The depth at the box's first sample, and its change per sample step right and down
  /// (depth is affine in screen space). Every pass computes a sample's depth as
  /// ``rowDepth(_:)`` `+ dzdx · column` (the column counted from the box's first), so that they
  /// agree to the bit. The sum has terms as large as the box's extreme corner's (far from a thin
  /// triangle, much larger than any vertex's depth): it is within a few float steps of their
  /// size, 2⁻¹⁹ of it (``SetupTriangle/nearest`` bounds that for every tile).
  let zOrigin: Float, dzdx: Float, dzdy: Float
  /// Whether the edge functions at every sample of the box fit `Int32` (see
  /// ``narrowRows()``).
  let narrow: Bool

  /// The part of `t` in the tile `tileX × tileY`, or nil when its box misses the tile.
  @inline(__always)
  init?(_ t: SetupTriangle, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>) {
    minX = Swift.max(Int(t.minX), tileX.lowerBound)
    maxX = Swift.min(Int(t.maxX), tileX.upperBound)
    minY = Swift.max(Int(t.minY), tileY.lowerBound)
    maxY = Swift.min(Int(t.maxY), tileY.upperBound)
    guard minX <= maxX, minY <= maxY else { return nil }
    // In scalars: with SIMD3<Int64>, SSE2 emulates each 64-bit multiply and int-to-float
    // conversion lane by lane.
    let one = SetupTriangle.one
    let (x0, x1, x2) = (Int64(t.x.x), Int64(t.x.y), Int64(t.x.z))
    let (y0, y1, y2) = (Int64(t.y.x), Int64(t.y.y), Int64(t.y.z))
    let px = Int64(minX) * one + one / 2, py = Int64(minY) * one + one / 2
    // Edge k runs from vertex k+1 to k+2 (edge 0: v1→v2, 1: v2→v0, 2: v0→v1). Its function at
    // a point is twice the area of the triangle the point makes with it, so the three over the
    // triangle's are the point's barycentric weights.
    let (dx0, dx1, dx2) = (x2 &- x1, x0 &- x2, x1 &- x0), (dy0, dy1, dy2) = (y2 &- y1, y0 &- y2, y1 &- y0)
    let e0 = dx0 &* (py &- y1) &- dy0 &* (px &- x1)
    let e1 = dx1 &* (py &- y2) &- dy1 &* (px &- x2)
    let e2 = dx2 &* (py &- y0) &- dy2 &* (px &- x0)
    originEdges = SIMD3(e0, e1, e2)
    stepX = SIMD3(0 &- dy0, 0 &- dy1, 0 &- dy2) &* one
    stepY = SIMD3(dx0, dx1, dx2) &* one
    bias = t.bias
    let zWeights = t.z * t.inverseArea
    zOrigin = (SIMD3(Float(e0), Float(e1), Float(e2)) * zWeights).sum()
    dzdx = (SIMD3(Float(0 &- dy0 &* one), Float(0 &- dy1 &* one), Float(0 &- dy2 &* one)) * zWeights).sum()
    dzdy = (SIMD3(Float(dx0 &* one), Float(dx1 &* one), Float(dx2 &* one)) * zWeights).sum()
    // Edge k at a point of the vertices' bounding box (extent w × h) is a difference of two
    // products of coordinate differences, each at most w·h: |e| ≤ 2·w·h.
    let w = Swift.max(x0, x1, x2) &- Swift.min(x0, x1, x2), h = Swift.max(y0, y1, y2) &- Swift.min(y0, y1, y2)
    narrow = 2 &* w &* h < Int64(Int32.max)
  }

  /// Samples per row of the box.
  @inline(__always) var width: Int { maxX - minX + 1 }

  /// The depth at the first column of the box in row `py`.
  @inline(__always)
  func rowDepth(_ py: Int) -> Float { zOrigin + dzdy * Float(py &- minY) }

  /// For ``narrow`` boxes: the biased edge functions of the first four samples of the box's
  /// first row (one vector per edge, a lane per sample; lanes past the box hold the values the
  /// row would continue with), their change per row down, and per four samples right. All in
  /// 32 bits: the box's samples lie in the vertices' bounding box, where ``narrow`` bounds the
  /// functions, so stepping in wrapping arithmetic lands on the exact value at each of them.
  @inline(__always)
  func narrowRows() -> (
    first: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>), down: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>),
    right: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>)
  ) {
    let e = SIMD3<Int32>(truncatingIfNeeded: originEdges &+ bias)
    let x = SIMD3<Int32>(truncatingIfNeeded: stepX), y = SIMD3<Int32>(truncatingIfNeeded: stepY)
    let lanes = SIMD4<Int32>(0, 1, 2, 3)
    return (
      (lanes &* x.x &+ e.x, lanes &* x.y &+ e.y, lanes &* x.z &+ e.z),
      (SIMD4(repeating: y.x), SIMD4(repeating: y.y), SIMD4(repeating: y.z)),
      (SIMD4(repeating: 4 &* x.x), SIMD4(repeating: 4 &* x.y), SIMD4(repeating: 4 &* x.z))
    )
  }

  /// `q` (the edge functions times 1/w) over the triangle, from the box's first sample.
  @inline(__always)
  func planes(_ t: SetupTriangle) -> PerspectivePlanes {
    let dqx = SIMD3<Float>(stepX) * t.inverseW, dqy = SIMD3<Float>(stepY) * t.inverseW
    return PerspectivePlanes(
      q0: SIMD3<Float>(originEdges) * t.inverseW, stepX: dqx, stepY: dqy,
      stepSums: SIMD2(dqx.sum(), dqy.sum()), extent: SIMD2(Float(maxX - minX), Float(maxY - minY)),
      smallestSum: LaneMath.least(t.inverseW) / t.inverseArea)
  }
}
