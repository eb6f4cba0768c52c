import ARMath

/// Points grouped into cubic cells, for drawing a point's neighbours.
struct NeighbourGrid {
  private let cells: SortedCells
  /// Each point's cell key (indexed by point, meaningful for the points given).
  private let keyOf: [UInt64]

  init(_ points: [SIMD3<Double>], _ indices: [Int], cellSize: Double) {
    var keyOf = [UInt64](repeating: 0, count: points.count)
    for i in indices {
      let c = points[i] / cellSize
      keyOf[i] = SortedCells.key(
        Int64(c.x.rounded(.down)), Int64(c.y.rounded(.down)), Int64(c.z.rounded(.down)))
    }
    cells = SortedCells(indices) { keyOf[$0] }
    self.keyOf = keyOf
  }

  /// A point from the cell of `i` or one of its 26 neighbours (a random cell, then a random
  /// point in it; `i` itself when they are all empty).
  func neighbour(of i: Int, _ rng: inout SplitMix64) -> Int {
    let home = keyOf[i]
    for _ in 0..<4 {
      // Offsets −1…1 an axis, added to the biased coordinates the key packs.
      let dx = UInt64(rng.below(3)) &- 1, dy = UInt64(rng.below(3)) &- 1, dz = UInt64(rng.below(3)) &- 1
      let key = home &+ (dx << 42) &+ (dy << 21) &+ dz
      if let cell = cells.cell(key) {
        let members = cells.items(ofCell: cell)
        return members[members.startIndex + rng.below(members.count)]
      }
    }
    let members = cells.items(ofCell: cells.cell(home)!)
    return members[members.startIndex + rng.below(members.count)]
  }
}
