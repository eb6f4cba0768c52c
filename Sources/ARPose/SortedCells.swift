/// Items grouped by integer grid cell, kept as one array sorted by cell key instead of a
/// dictionary of arrays: building it is one sort, finding a cell a binary search, and nothing is
/// hashed or allocated per cell. Within a cell, items keep the order they were given in.
struct SortedCells {
  /// The distinct cell keys, ascending.
  private(set) var keys: [UInt64] = []
  /// Cell `k`'s items are `items[starts[k] ..< starts[k + 1]]`.
  private(set) var starts: [Int] = []
  private(set) var items: [Int] = []

  /// A key for the cell at integer coordinates `(x, y, z)` (each within ±2²⁰).
  @inline(__always)
  static func key(_ x: Int64, _ y: Int64, _ z: Int64 = 0) -> UInt64 {
    let bias: Int64 = 1 << 20
    return UInt64(x + bias) << 42 | UInt64(y + bias) << 21 | UInt64(z + bias)
  }

  /// Groups `items` by `keyOf(item)`.
  init(_ items: [Int], key keyOf: (Int) -> UInt64) {
    let tagged = items.map { (key: keyOf($0), item: $0) }
    // Stable, so a cell's items stay in the given order.
    let sorted = tagged.enumerated().sorted { a, b in
      a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
    }
    keys.reserveCapacity(sorted.count)
    self.items = sorted.map(\.element.item)
    for (position, entry) in sorted.enumerated() where keys.last != entry.element.key {
      keys.append(entry.element.key)
      starts.append(position)
    }
    starts.append(sorted.count)
  }

  /// The index of the cell with `key`, or nil when it holds nothing.
  @inline(__always)
  func cell(_ key: UInt64) -> Int? {
    var lo = 0, hi = keys.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if keys[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo < keys.count && keys[lo] == key ? lo : nil
  }

  /// The items of cell `k`.
  @inline(__always)
  func items(ofCell k: Int) -> ArraySlice<Int> { items[starts[k]..<starts[k + 1]] }

  var cellCount: Int { keys.count }
}
