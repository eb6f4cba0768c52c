import ARMath

/// How a triangle marked out of draw order settles a depth equal to the one marked at a sample:
/// the triangle drawn first keeps the sample, as a depth test "less" in draw order would leave
/// it. Triangles carry their rank in draw order; the tile's marked triangles' ranks are kept
/// by number (see ``TileVisibility/ranks``).
struct DepthTies {
  /// The rank in draw order of the triangle being marked.
  let rank: Int32
  /// The ranks of the triangles marked so far, by number.
  let ranks: UnsafePointer<Int32>

  /// The lanes of `tied` (equal depths) where the triangle being marked comes before the one
  /// numbered in `marked` (none, −1, never loses: an empty sample's depth is the clear depth).
  @inline(__always)
  func won(_ tied: SIMD4<Int32>, from marked: SIMD4<Int32>) -> SIMD4<Int32> {
    // Rare (equal depths from two triangles' planes): out of the marking loop.
    guard LaneMath.anySet(tied) else { return .zero }
    return settle(tied, from: marked)
  }

  @inline(never)
  private func settle(_ tied: SIMD4<Int32>, from marked: SIMD4<Int32>) -> SIMD4<Int32> {
    var won = SIMD4<Int32>.zero
    for lane in 0..<4 where tied[lane] != 0 && marked[lane] >= 0 && ranks[Int(marked[lane])] > rank {
      won[lane] = -1
    }
    return won
  }
}
