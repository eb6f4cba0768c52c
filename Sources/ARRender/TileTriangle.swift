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
  /// What the top-left rule adds to each edge function before the coverage test.
  let bias: SIMD3<Int64>
  /// The depth weights of the edge functions (depth is affine in screen space), and the
  /// depth's change per sample step right.
  let zWeights: SIMD3<Float>
  let dzdx: Float

  /// The part of `t` in the tile `tileX × tileY`, or nil when its box misses the tile.
  @inline(__always)
  init?(_ t: SetupTriangle, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>) {
    minX = Swift.max(Int(t.minX), tileX.lowerBound)
    maxX = Swift.min(Int(t.maxX), tileX.upperBound)
    minY = Swift.max(Int(t.minY), tileY.lowerBound)
    maxY = Swift.min(Int(t.maxY), tileY.upperBound)
    guard minX <= maxX, minY <= maxY else { return nil }
    let one = SetupTriangle.one
    (stepX, stepY) = t.edgeSteps
    bias = t.bias
    originEdges = t.edges(Int64(minX) * one + one / 2, Int64(minY) * one + one / 2)
    zWeights = t.z * t.inverseArea
    dzdx = (SIMD3<Float>(stepX) * zWeights).sum()
  }

  /// Samples per row of the box.
  @inline(__always) var width: Int { maxX - minX + 1 }

  /// The depth at sample `lo` of the row whose edge functions (at the box's first column) are
  /// `rowEdges`; the row's later samples add ``dzdx`` per step.
  @inline(__always)
  func rowDepth(_ rowEdges: SIMD3<Int64>, at lo: Int) -> Float {
    (SIMD3<Float>(rowEdges &+ stepX &* Int64(lo)) * zWeights).sum()
  }

  /// `q` (the edge functions times 1/w) over the triangle, from the box's first sample.
  @inline(__always)
  func planes(_ t: SetupTriangle) -> PerspectivePlanes {
    let dqx = SIMD3<Float>(stepX) * t.inverseW, dqy = SIMD3<Float>(stepY) * t.inverseW
    return PerspectivePlanes(
      q0: SIMD3<Float>(originEdges) * t.inverseW, stepX: dqx, stepY: dqy,
      stepSums: SIMD2(dqx.sum(), dqy.sum()), extent: SIMD2(Float(maxX - minX), Float(maxY - minY)),
      smallestSum: t.inverseW.min() / t.inverseArea)
  }
}
