import ARMath
import Dispatch

/// A k-d tree over 3-D points: the points reordered so that each range's middle element splits
/// it on one axis (cycling x, y, z with depth), the halves on either side; small ranges are
/// scanned whole. Built by selection, not sorting; the top split's halves on two threads.
struct KDTree: Sendable {
  /// The points, reordered into the tree's layout.
  let points: [SIMD3<Double>]
  /// Each reordered point's index in the input.
  let indices: [Int32]
  /// Ranges this short are scanned rather than split.
  static let leafSize = 12

  init(_ input: [SIMD3<Double>], threads: Int) {
    var order = [Int32](0..<Int32(input.count))
    input.withUnsafeBufferPointer { p in
      order.withUnsafeMutableBufferPointer { o in
        let (points, out) = (UnsafeSendableBuffer(p), UnsafeSendableMutablePointer(o.baseAddress!))
        KDTree.build(points.buffer, out.pointer, 0, input.count, depth: 0, parallel: threads > 1)
      }
    }
    indices = order
    points = order.map { input[Int($0)] }
  }

  /// Arranges `order[low..<high]` into a subtree at `depth`.
  private static func build(
    _ points: UnsafeBufferPointer<SIMD3<Double>>, _ order: UnsafeMutablePointer<Int32>, _ low: Int,
    _ high: Int,
    depth: Int, parallel: Bool
  ) {
    guard high - low > leafSize else { return }
    let axis = depth % 3, middle = (low + high) / 2
    select(points, order, low, high, middle, axis: axis)
    if parallel && high - low > 100_000 {
      let (p, o) = (UnsafeSendableBuffer(points), UnsafeSendableMutablePointer(order))
      DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 {
          build(p.buffer, o.pointer, low, middle, depth: depth + 1, parallel: false)
        } else {
          build(p.buffer, o.pointer, middle + 1, high, depth: depth + 1, parallel: false)
        }
      }
    } else {
      build(points, order, low, middle, depth: depth + 1, parallel: parallel)
      build(points, order, middle + 1, high, depth: depth + 1, parallel: parallel)
    }
  }

  /// Reorders `order[low..<high]` so that position `k` holds the element that sorting by `axis`
  /// would put there, smaller or equal ones before it and greater or equal ones after
  /// (Hoare's selection with a median-of-three pivot; ties broken by index, so the layout is
  /// the same on every run).
  private static func select(
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

  /// The input indices of the points within `radius` of `query` (Euclidean), in no order.
  func within(_ radius: Double, of query: SIMD3<Double>) -> [Int] {
    var found: [Int] = []
    guard radius >= 0, !points.isEmpty else { return found }
    let r2 = radius * radius
    var stack: [(Int, Int, Int)] = [(0, points.count, 0)]
    while let (low, high, depth) = stack.popLast() {
      if high - low <= Self.leafSize {
        for i in low..<high where (points[i] - query).lengthSquared <= r2 { found.append(Int(indices[i])) }
        continue
      }
      let axis = depth % 3, middle = (low + high) / 2
      let split = points[middle][axis], offset = query[axis] - split
      if (points[middle] - query).lengthSquared <= r2 { found.append(Int(indices[middle])) }
      if offset <= radius { stack.append((low, middle, depth + 1)) }
      if offset >= -radius { stack.append((middle + 1, high, depth + 1)) }
    }
    return found
  }

  /// The input indices of the `count` points nearest `query` (Euclidean) within `radius`,
  /// nearest first.
  func nearest(_ count: Int, to query: SIMD3<Double>, within radius: Double) -> [Int] {
    guard count > 0, !points.isEmpty else { return [] }
    // The best so far, farthest first (a small sorted list: counts asked for are small).
    var best: [(distance: Double, index: Int)] = []
    var bound = radius.isFinite ? radius * radius : .infinity
    @inline(__always) func offer(_ i: Int) {
      let d = (points[i] - query).lengthSquared
      guard d <= bound else { return }
      let entry = (d, Int(indices[i]))
      let at = best.firstIndex { ($0.distance, $0.index) < (entry.0, entry.1) } ?? best.count
      best.insert(entry, at: at)
      if best.count > count { best.removeFirst() }
      if best.count == count { bound = min(bound, best[0].distance) }
    }
    func visit(_ low: Int, _ high: Int, _ depth: Int) {
      if high - low <= Self.leafSize {
        for i in low..<high { offer(i) }
        return
      }
      let axis = depth % 3, middle = (low + high) / 2
      let offset = query[axis] - points[middle][axis]
      let (near, far) =
        offset <= 0 ? ((low, middle), (middle + 1, high)) : ((middle + 1, high), (low, middle))
      visit(near.0, near.1, depth + 1)
      offer(middle)
      if offset * offset <= bound { visit(far.0, far.1, depth + 1) }
    }
    visit(0, points.count, 0)
    return best.reversed().map(\.index)
  }
}
