import Atomics

/// Hands a frame's tiles to the workers that draw them.
///
/// Whole rows of tiles go to the next free worker, busiest first, and their owner draws them
/// left to right: neighbours across a vertical tile edge share cache lines of the output, so a
/// row drawn by one worker keeps them on one core. Once every row has an owner, a worker that
/// runs out of its own takes tiles from the right end of the row with the most left, while the
/// owner goes on from the left: a row is ten or more tiles of a frame of a dozen rows, and
/// finishing on whole rows left one core idle for a row's time at the end of every frame
/// (about 1 ms of the 100k-triangle model's 11 ms). Only where owner and helper meet do two
/// workers share an output line.
///
/// Which worker draws a tile never changes what is drawn there.
final class TileQueue: @unchecked Sendable {
  /// The grid's rows, busiest first.
  private let rows: [Int]
  private let tilesPerRow: Int
  /// The next row (in ``rows``) without an owner.
  private let nextRow = ManagedAtomic<Int>(0)
  /// Per row in ``rows``: the tiles not yet taken, `first ..< end` counted in the row, packed
  /// as `end << 32 | first`, so that either end is taken with one compare-and-exchange.
  private let untaken: [UnsafeAtomic<UInt64>]

  /// What a worker is drawing: the row it owns, or the row it helps, as an index in ``rows``.
  struct Claim {
    fileprivate var owned: Int?
    fileprivate var helped: Int?

    init() {}
  }

  /// A queue of the `tilesPerRow × rowWork.count` tiles of a grid, row `r` being
  /// `rowWork[r]` busy (any measure of work, more is busier).
  init(tilesPerRow: Int, rowWork: [Int]) {
    rows = rowWork.indices.sorted { a, b in rowWork[a] != rowWork[b] ? rowWork[a] > rowWork[b] : a < b }
    self.tilesPerRow = tilesPerRow
    untaken = rows.map { _ in UnsafeAtomic.create(UInt64(tilesPerRow) << 32) }
  }

  deinit {
    for counter in untaken { _ = counter.destroy() }
  }

  /// The next tile for the worker whose claim is `claim` (each worker keeps its own, from
  /// ``Claim/init()``), as an index in the grid (row-major), or nil when every tile is taken.
  func next(_ claim: inout Claim) -> Int? {
    while true {
      if let slot = claim.owned {
        if let column = take(slot, fromEnd: false) { return rows[slot] * tilesPerRow + column }
        claim.owned = nil
      }
      if let slot = claim.helped {
        if let column = take(slot, fromEnd: true) { return rows[slot] * tilesPerRow + column }
        claim.helped = nil
      }
      let next = nextRow.loadThenWrappingIncrement(ordering: .relaxed)
      if next < rows.count {
        claim.owned = next
        continue
      }
      guard let slot = mostUntaken() else { return nil }
      claim.helped = slot
    }
  }

  /// Takes the first (or, `fromEnd`, the last) untaken tile of the row at `slot`: its column.
  private func take(_ slot: Int, fromEnd: Bool) -> Int? {
    var value = untaken[slot].load(ordering: .relaxed)
    while true {
      let (first, end) = (value & 0xFFFF_FFFF, value >> 32)
      guard first < end else { return nil }
      let taken = fromEnd ? value &- (1 << 32) : value &+ 1
      let (exchanged, original) = untaken[slot].compareExchange(
        expected: value, desired: taken, ordering: .relaxed)
      if exchanged { return Int(fromEnd ? end &- 1 : first) }
      value = original
    }
  }

  /// The row (in ``rows``) with the most tiles untaken, or nil when none has any.
  private func mostUntaken() -> Int? {
    var best: Int?, most: UInt64 = 0
    for slot in rows.indices {
      let value = untaken[slot].load(ordering: .relaxed)
      let left = (value >> 32) &- Swift.min(value & 0xFFFF_FFFF, value >> 32)
      if left > most { (best, most) = (slot, left) }
    }
    return best
  }
}
