import ARMath
import CMathShims
import Dispatch

/// A k-d tree over 3-D points: the points reordered so that each range splits at its middle
/// element on one axis (cycling x, y, z with depth), the lower half before the middle, the
/// middle and the upper half after; ranges of ``leafSize`` or fewer are scanned whole. Built by
/// selection, not sorting; a large range's halves on two threads each, down to as many
/// subtrees as the build has threads.
///
/// The split values live apart from the points, in heap order (node k's halves are nodes 2k + 1
/// and 2k + 2): a megabyte for a million points, so a query's descent reads cached splits and
/// touches the points only in the leaves it scans (reading each range's middle point instead
/// was a cache miss at every level, half a radius query's time).
struct KDTree: Sendable {
  /// The points, reordered into the tree's layout.
  let points: [SIMD3<Double>]
  /// Each reordered point's index in the input.
  let indices: [Int32]
  /// Each internal node's split coordinate, in heap order.
  let splits: [Double]
  /// Ranges this short are scanned rather than split.
  static let leafSize = 12

  init(_ input: [SIMD3<Double>], threads: Int) {
    var order = [Int32](0..<Int32(input.count))
    var levels = 0, longest = input.count
    while longest > Self.leafSize { (longest, levels) = ((longest + 1) / 2, levels + 1) }
    var splits = [Double](repeating: 0, count: max(1, (1 << levels) - 1))  // never empty: a base address
    input.withUnsafeBufferPointer { p in
      order.withUnsafeMutableBufferPointer { o in
        splits.withUnsafeMutableBufferPointer { s in
          let tree = Layout(
            points: UnsafeSendableBuffer(p), order: UnsafeSendableMutablePointer(o.baseAddress!),
            splits: UnsafeSendableMutablePointer(s.baseAddress!))
          tree.build(node: 0, 0, input.count, depth: 0, workers: threads)
        }
      }
    }
    indices = order
    points = order.map { input[Int($0)] }
    self.splits = splits
  }

  /// The arrays a build arranges: the input points, their order and the split values.
  private struct Layout: Sendable {
    let points: UnsafeSendableBuffer<SIMD3<Double>>
    let order: UnsafeSendableMutablePointer<Int32>
    let splits: UnsafeSendableMutablePointer<Double>

    /// Arranges `order[low..<high]` into the subtree of `node` at `depth`, recording its split,
    /// on `workers` threads: the halves of a large range on two, each with half the workers.
    func build(node: Int, _ low: Int, _ high: Int, depth: Int, workers: Int) {
      guard high - low > KDTree.leafSize else { return }
      let axis = depth % 3, middle = (low + high) / 2
      KDTree.select(points.buffer, order.pointer, low, high, middle, axis: axis)
      // The middle element: nothing before it is greater, nothing after it smaller.
      splits.pointer[node] = points.buffer[Int(order.pointer[middle])][axis]
      if workers > 1 && high - low > 100_000 {
        DispatchQueue.concurrentPerform(iterations: 2) { half in
          if half == 0 {
            build(node: 2 * node + 1, low, middle, depth: depth + 1, workers: (workers + 1) / 2)
          } else {
            build(node: 2 * node + 2, middle, high, depth: depth + 1, workers: workers / 2)
          }
        }
      } else {
        build(node: 2 * node + 1, low, middle, depth: depth + 1, workers: workers)
        build(node: 2 * node + 2, middle, high, depth: depth + 1, workers: workers)
      }
    }
  }

  /// Reorders `order[low..<high]` so that position `k` holds the element that sorting by `axis`
  /// would put there, smaller or equal ones before it and greater or equal ones after
  /// (Hoare's selection with a median-of-three pivot; ties broken by index, so the layout is
  /// the same on every run).
  fileprivate static func select(
    _ points: UnsafeBufferPointer<SIMD3<Double>>, _ order: UnsafeMutablePointer<Int32>, _ low: Int,
    _ high: Int,
    _ k: Int, axis: Int
  ) {
    @inline(__always) func swap(_ i: Int, _ j: Int) { (order[i], order[j]) = (order[j], order[i]) }
    @inline(__always) func less(_ a: Int32, _ b: Int32) -> Bool {
      let (x, y) = (points[Int(a)][axis], points[Int(b)][axis])
      return x < y || (x == y && a < b)
    }
    var (lo, hi) = (low, high - 1)
    while lo < hi {
      let mid = (lo + hi) / 2
      if less(order[mid], order[lo]) { swap(mid, lo) }
      if less(order[hi], order[lo]) { swap(hi, lo) }
      if less(order[hi], order[mid]) { swap(hi, mid) }
      let pivot = order[mid]
      var (i, j) = (lo, hi)
      while i <= j {
        while less(order[i], pivot) { i += 1 }
        while less(pivot, order[j]) { j -= 1 }
        if i <= j {
          swap(i, j)
          i += 1
          j -= 1
        }
      }
      if k <= j { hi = j } else if k >= i { lo = i } else { return }
    }
  }

  /// A point found: its index in the input and its coordinates.
  typealias Found = (index: Int, point: SIMD3<Double>)

  /// A subtree pending in a query: its node, its range of points, its depth, and the query's
  /// distance from its box along each axis (metres; zero where the query lies within).
  private typealias Subtree = (node: Int, low: Int, high: Int, depth: Int, side: SIMD3<Double>)

  /// The halves of internal subtree `t`: the one on the query's side, which keeps `t`'s box
  /// distances, and the other, across the split (the split plane is its box's nearest face
  /// along the split's axis, so only that distance changes).
  @inline(__always)
  private func halves(of t: Subtree, _ query: SIMD3<Double>, _ split: Double) -> (near: Subtree, far: Subtree)
  {
    let axis = t.depth % 3, middle = (t.low + t.high) / 2
    let offset = query[axis] - split
    var across = t.side
    across[axis] = offset
    let lower = (2 * t.node + 1, t.low, middle), upper = (2 * t.node + 2, middle, t.high)
    let (near, far) = offset <= 0 ? (lower, upper) : (upper, lower)
    return ((near.0, near.1, near.2, t.depth + 1, t.side), (far.0, far.1, far.2, t.depth + 1, across))
  }

  /// Calls `body` with each point within `radius` of `query` (Euclidean), in no order, after
  /// telling `expect` how many points the scan will test (at most that many calls of `body`
  /// follow: room for the answers can be made once). A subtree is skipped when its box lies
  /// farther than `radius`.
  ///
  /// Two passes: the descent through the (cached) splits lists the leaves to scan and asks for
  /// their points, then the leaves are scanned. A million points fill more than the last-level
  /// cache, so the points of a leaf are usually in memory: asked for together, their loads
  /// overlap instead of each leaf's waiting in turn (1 km queries over a million places took a
  /// tenth less time).
  @inline(__always)
  func forEachPoint(
    within radius: Double, of query: SIMD3<Double>, expect: (Int) -> Void, _ body: (Found) -> Void
  ) {
    guard radius >= 0, !points.isEmpty else { return }
    let r2 = radius * radius
    var stack: [Subtree] = [(0, 0, points.count, 0, .zero)]
    stack.reserveCapacity(64)
    var leaves: [(low: Int32, high: Int32)] = []
    leaves.reserveCapacity(256)
    var candidates = 0
    points.withUnsafeBufferPointer { points in
      indices.withUnsafeBufferPointer { indices in
        splits.withUnsafeBufferPointer { splits in
          while let subtree = stack.popLast() {
            if subtree.high - subtree.low <= Self.leafSize {
              leaves.append((Int32(subtree.low), Int32(subtree.high)))
              candidates += subtree.high - subtree.low
              arscene_prefetch_range(
                points.baseAddress! + subtree.low,
                (subtree.high - subtree.low) * MemoryLayout<SIMD3<Double>>.stride)
              arscene_prefetch(indices.baseAddress! + subtree.low)
              continue
            }
            let (near, far) = halves(of: subtree, query, splits[subtree.node])
            if (far.side * far.side).sum() <= r2 { stack.append(far) }
            stack.append(near)
          }
        }
        expect(candidates)
        for (low, high) in leaves {
          for i in Int(low)..<Int(high) where (points[i] - query).lengthSquared <= r2 {
            body((Int(indices[i]), points[i]))
          }
        }
      }
    }
  }

  /// The `count` points nearest `query` (Euclidean) within `radius`, nearest first.
  func nearest(_ count: Int, to query: SIMD3<Double>, within radius: Double) -> [Found] {
    guard count > 0, !points.isEmpty else { return [] }
    // The best so far, farthest first (a small sorted list: counts asked for are small).
    var best: [(distance: Double, index: Int, slot: Int)] = []
    var bound = radius.isFinite ? radius * radius : .infinity
    @inline(__always) func offer(_ i: Int) {
      let d = (points[i] - query).lengthSquared
      guard d <= bound else { return }
      let entry = (distance: d, index: Int(indices[i]), slot: i)
      let at = best.firstIndex { ($0.distance, $0.index) < (entry.distance, entry.index) } ?? best.count
      best.insert(entry, at: at)
      if best.count > count { best.removeFirst() }
      if best.count == count { bound = min(bound, best[0].distance) }
    }
    func visit(_ subtree: Subtree) {
      if subtree.high - subtree.low <= Self.leafSize {
        for i in subtree.low..<subtree.high { offer(i) }
        return
      }
      let (near, far) = halves(of: subtree, query, splits[subtree.node])
      visit(near)
      if (far.side * far.side).sum() <= bound { visit(far) }
    }
    visit((0, 0, points.count, 0, .zero))
    return best.reversed().map { ($0.index, points[$0.slot]) }
  }
}
