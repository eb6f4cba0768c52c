import ARMath

/// Top-down binned-SAH construction for ``BoundingVolumeHierarchy``.
struct BVHBuilder {
  typealias Node = BoundingVolumeHierarchy.Node
  static let bins = 16
  static let maxLeafSize = 4
  // Relative costs of a node visit and a triangle test (SAH).
  static let traversalCost = 1.0, intersectionCost = 1.0

  private let boxes: [AxisAlignedBox<Double>]
  private let centroids: [SIMD3<Double>]
  /// Triangle indices, partitioned in place into leaf order.
  private(set) var order: [Int]
  private(set) var nodes: [Node] = []
  private(set) var rootBounds = AxisAlignedBox<Double>.empty

  init(positions: [SIMD3<Double>], indices: [Int]) {
    let count = indices.count / 3
    var boxes = [AxisAlignedBox<Double>](repeating: .empty, count: count)
    var centroids = [SIMD3<Double>](repeating: .zero, count: count)
    for t in 0..<count {
      let p0 = positions[indices[3 * t]], p1 = positions[indices[3 * t + 1]],
        p2 = positions[indices[3 * t + 2]]
      let box = AxisAlignedBox(
        min: pointwiseMin(pointwiseMin(p0, p1), p2), max: pointwiseMax(pointwiseMax(p0, p1), p2))
      boxes[t] = box
      centroids[t] = box.center
    }
    self.boxes = boxes
    self.centroids = centroids
    order = Array(0..<count)
  }

  private func bounds(_ range: Range<Int>) -> (box: AxisAlignedBox<Double>, centroids: AxisAlignedBox<Double>)
  {
    var box = AxisAlignedBox<Double>.empty, centroidBox = AxisAlignedBox<Double>.empty
    for i in range {
      box = box.union(boxes[order[i]])
      centroidBox.formUnion(centroids[order[i]])
    }
    return (box, centroidBox)
  }

  mutating func build() {
    let count = order.count
    nodes.reserveCapacity(2 * count / Self.maxLeafSize + 1)
    let (box, centroidBox) = bounds(0..<count)
    rootBounds = box
    nodes.append(Node())
    // The root node's two children: split the whole set (a single small set becomes one leaf
    // on the left and an empty right child).
    buildChildren(of: 0, range: 0..<count, centroidBox: centroidBox)
  }

  /// Chooses a split of `range` (or none, if a leaf is cheaper) by binned SAH.
  private func split(_ range: Range<Int>, centroidBox: AxisAlignedBox<Double>) -> (
    axis: Int, position: Double
  )? {
    let n = range.count
    let extent = centroidBox.max - centroidBox.min
    var best: (cost: Double, axis: Int, position: Double)? = nil
    for axis in 0..<3 where extent[axis] > 0 {
      var binBoxes = [AxisAlignedBox<Double>](repeating: .empty, count: Self.bins)
      var binCounts = [Int](repeating: 0, count: Self.bins)
      let scale = Double(Self.bins) / extent[axis]
      for i in range {
        let t = order[i]
        let bin = min(Self.bins - 1, Int((centroids[t][axis] - centroidBox.min[axis]) * scale))
        binCounts[bin] += 1
        binBoxes[bin] = binBoxes[bin].union(boxes[t])
      }
      // Sweep from the right to get the right-side areas, then from the left.
      var rightArea = [Double](repeating: 0, count: Self.bins),
        rightCount = [Int](repeating: 0, count: Self.bins)
      var box = AxisAlignedBox<Double>.empty, total = 0
      for bin in stride(from: Self.bins - 1, to: 0, by: -1) {
        box = box.union(binBoxes[bin])
        total += binCounts[bin]
        rightArea[bin] = Self.area(box)
        rightCount[bin] = total
      }
      box = .empty
      total = 0
      for bin in 0..<(Self.bins - 1) {
        box = box.union(binBoxes[bin])
        total += binCounts[bin]
        guard total > 0, rightCount[bin + 1] > 0 else { continue }
        let cost = Self.area(box) * Double(total) + rightArea[bin + 1] * Double(rightCount[bin + 1])
        if best == nil || cost < best!.cost {
          best = (cost, axis, centroidBox.min[axis] + Double(bin + 1) / scale)
        }
      }
    }
    guard let best else { return nil }
    // Compare with not splitting: SAH cost of the leaf relative to the parent's area.
    let parentArea = Self.area(bounds(range).box)
    let splitCost =
      Self.traversalCost + Self.intersectionCost * best.cost / max(parentArea, .leastNormalMagnitude)
    if n <= Self.maxLeafSize && splitCost >= Self.intersectionCost * Double(n) { return nil }
    return (best.axis, best.position)
  }

  static func area(_ box: AxisAlignedBox<Double>) -> Double {
    guard !box.isEmpty else { return 0 }
    let d = box.max - box.min
    return 2 * (d.x * d.y + d.y * d.z + d.z * d.x)
  }

  /// Partitions `range` by the split, or in the middle when the split cannot separate it.
  private mutating func partition(_ range: Range<Int>, axis: Int, position: Double) -> Int {
    var i = range.lowerBound, j = range.upperBound - 1
    while i <= j {
      if centroids[order[i]][axis] < position {
        i += 1
      } else {
        order.swapAt(i, j)
        j -= 1
      }
    }
    if i == range.lowerBound || i == range.upperBound { return (range.lowerBound + range.upperBound) / 2 }
    return i
  }

  /// Fills node `index`'s children from `range`.
  private mutating func buildChildren(
    of index: Int, range: Range<Int>, centroidBox: AxisAlignedBox<Double>
  ) {
    let middle: Int
    if let (axis, position) = split(range, centroidBox: centroidBox) {
      middle = partition(range, axis: axis, position: position)
    } else if range.count > Self.maxLeafSize {
      middle = (range.lowerBound + range.upperBound) / 2  // identical centroids: split by count
    } else {
      // Small enough for one leaf: it becomes the left child, the right one stays empty.
      let (box, _) = bounds(range)
      setChild(of: index, side: 0, box: box, child: ~Int32(range.lowerBound), count: Int32(range.count))
      setChild(of: index, side: 1, box: .empty, child: ~Int32(range.upperBound), count: 0)
      return
    }
    for (side, part) in [range.lowerBound..<middle, middle..<range.upperBound].enumerated() {
      let (box, centroids) = bounds(part)
      if part.count <= Self.maxLeafSize && (part.count == 1 || split(part, centroidBox: centroids) == nil) {
        setChild(of: index, side: side, box: box, child: ~Int32(part.lowerBound), count: Int32(part.count))
      } else {
        let child = nodes.count
        nodes.append(Node())
        setChild(of: index, side: side, box: box, child: Int32(child), count: 0)
        buildChildren(of: child, range: part, centroidBox: centroids)
      }
    }
  }

  private mutating func setChild(
    of index: Int, side: Int, box: AxisAlignedBox<Double>, child: Int32, count: Int32
  ) {
    nodes[index].minX[side] = box.min.x
    nodes[index].minY[side] = box.min.y
    nodes[index].minZ[side] = box.min.z
    nodes[index].maxX[side] = box.max.x
    nodes[index].maxY[side] = box.max.y
    nodes[index].maxZ[side] = box.max.z
    if side == 0 {
      nodes[index].left = child
      nodes[index].leftCount = count
    } else {
      nodes[index].right = child
      nodes[index].rightCount = count
    }
  }
}
