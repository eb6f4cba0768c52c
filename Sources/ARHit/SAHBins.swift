import ARMath

/// Centroid bins on all three axes for one binned-SAH split (Wald 2007): per axis and bin, the
/// union of the boxes of the triangles whose centre falls there, and their count. Scratch memory
/// reused for every split a thread makes; one thread at a time uses an instance.
final class SAHBins: @unchecked Sendable {
  /// The most bins an axis has.
  static let count = 16
  /// Bin `b` of axis `a` is entry `a * count + b`; a second set of bins follows at
  /// ``secondSet`` (see ``add(_:_:_:)``).
  private let lower: UnsafeMutablePointer<SIMD4<Float>>
  private let upper: UnsafeMutablePointer<SIMD4<Float>>
  private let counts: UnsafeMutablePointer<Int>
  /// Right-side areas of the sweep.
  private let rightArea: UnsafeMutablePointer<Float>

  init() {
    lower = .allocate(capacity: 2 * Self.secondSet)
    upper = .allocate(capacity: 2 * Self.secondSet)
    counts = .allocate(capacity: 2 * Self.secondSet)
    rightArea = .allocate(capacity: Self.count)
    clear(Self.count)
  }

  deinit {
    lower.deallocate()
    upper.deallocate()
    counts.deallocate()
    rightArea.deallocate()
  }

  /// Empties the first `bins` bins of each axis.
  func clear(_ bins: Int) {
    for axis in 0..<3 {
      (lower + axis * Self.count).initialize(repeating: SIMD4(repeating: .infinity), count: bins)
      (upper + axis * Self.count).initialize(repeating: SIMD4(repeating: -.infinity), count: bins)
      (counts + axis * Self.count).initialize(repeating: 0, count: bins)
    }
  }

  /// Offset of the second set of bins.
  private static let secondSet = 3 * count

  /// Adds `triangles[range]` to the bins. Neighbouring triangles of a mesh mostly share bins,
  /// and each update waited for the one before it to reach memory; alternate triangles of a long
  /// range go to a second set of bins, summed at the end, so two chains run side by side.
  func add(_ triangles: UnsafePointer<BuildTriangle>, _ range: Range<Int>, _ mapping: BinMapping) {
    guard range.count >= 64 else {
      for i in range { add(triangles[i], mapping, set: 0) }
      return
    }
    let bins = mapping.count
    for axis in 0..<3 {
      let first = Self.secondSet + axis * Self.count
      (lower + first).initialize(repeating: SIMD4(repeating: .infinity), count: bins)
      (upper + first).initialize(repeating: SIMD4(repeating: -.infinity), count: bins)
      (counts + first).initialize(repeating: 0, count: bins)
    }
    var i = range.lowerBound
    while i + 1 < range.upperBound {
      add(triangles[i], mapping, set: 0)
      add(triangles[i + 1], mapping, set: Self.secondSet)
      i += 2
    }
    if i < range.upperBound { add(triangles[i], mapping, set: 0) }
    for axis in 0..<3 {
      for bin in (axis * Self.count)..<(axis * Self.count + bins) {
        lower[bin] = LaneMath.min(lower[bin], lower[Self.secondSet + bin])
        upper[bin] = LaneMath.max(upper[bin], upper[Self.secondSet + bin])
        counts[bin] += counts[Self.secondSet + bin]
      }
    }
  }

  @inline(__always)
  private func add(_ triangle: BuildTriangle, _ mapping: BinMapping, set: Int) {
    let bin = mapping.bins(triangle.doubledCentre)
    let x = set + Int(bin.x), y = set + Self.count + Int(bin.y), z = set + 2 * Self.count + Int(bin.z)
    lower[x] = LaneMath.min(lower[x], triangle.lower)
    upper[x] = LaneMath.max(upper[x], triangle.upper)
    counts[x] &+= 1
    lower[y] = LaneMath.min(lower[y], triangle.lower)
    upper[y] = LaneMath.max(upper[y], triangle.upper)
    counts[y] &+= 1
    lower[z] = LaneMath.min(lower[z], triangle.lower)
    upper[z] = LaneMath.max(upper[z], triangle.upper)
    counts[z] &+= 1
  }

  /// Adds another binning of the same mapping (a part of the span binned on another thread).
  /// Unions and counts are exact, so the result does not depend on how the span was divided.
  func add(_ other: SAHBins, _ mapping: BinMapping) {
    for i in 0..<(3 * Self.count) where i % Self.count < mapping.count {
      lower[i] = LaneMath.min(lower[i], other.lower[i])
      upper[i] = LaneMath.max(upper[i], other.upper[i])
      counts[i] += other.counts[i]
    }
  }

  /// The cheapest split of the `total` binned triangles: its axis and the first bin of its right
  /// side, or nil when no axis can be split. The cost is the surface area heuristic with
  /// triangles counted in packets of four, as the leaves test them (``LeafTriangles``).
  func bestSplit(_ mapping: BinMapping, total: Int) -> (axis: Int, bin: Int)? {
    var best: (axis: Int, bin: Int)? = nil
    var bestCost = Float.infinity
    for axis in 0..<3 where mapping.canSplit(along: axis) {
      let base = axis * Self.count
      var boxLower = SIMD4<Float>(repeating: .infinity), boxUpper = SIMD4<Float>(repeating: -.infinity)
      for bin in stride(from: mapping.count - 1, to: 0, by: -1) {
        boxLower = LaneMath.min(boxLower, lower[base + bin])
        boxUpper = LaneMath.max(boxUpper, upper[base + bin])
        rightArea[bin] = BuildBounds.halfArea(boxLower, boxUpper)
      }
      boxLower = SIMD4(repeating: .infinity)
      boxUpper = SIMD4(repeating: -.infinity)
      var leftCount = 0
      for bin in 1..<mapping.count {
        boxLower = LaneMath.min(boxLower, lower[base + bin - 1])
        boxUpper = LaneMath.max(boxUpper, upper[base + bin - 1])
        leftCount += counts[base + bin - 1]
        guard leftCount > 0, leftCount < total else { continue }
        let cost =
          BuildBounds.halfArea(boxLower, boxUpper) * Self.packets(leftCount) + rightArea[bin]
          * Self.packets(total - leftCount)
        if cost < bestCost { (best, bestCost) = ((axis, bin), cost) }
      }
    }
    return best
  }

  /// The cost of testing `count` triangles, in packet tests (four triangles each).
  static func packets(_ count: Int) -> Float { Float((count + 3) / 4) }
}
