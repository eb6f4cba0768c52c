import ARMath

/// Top-down binned-SAH construction for ``BoundingVolumeHierarchy`` (Wald 2007).
///
/// One pass over a node's triangles fills 16 centroid bins on all three axes at once; sweeping
/// the bins gives the best split, the children's boxes, and no second pass is needed for them.
/// Scratch bins are reused for every node, so the build allocates only its outputs. Below
/// ``maxSAHDepth`` levels (only reachable with adversarial input) splits fall back to the median,
/// which caps the depth the traversal stack must hold at ``maxDepth``.
struct BVHBuilder {
  typealias Node = BoundingVolumeHierarchy.Node
  static let bins = 16
  static let maxLeafSize = 4
  static let maxSAHDepth = 48
  /// No tree is deeper: 48 SAH levels, then median splits of at most 2³² triangles.
  static let maxDepth = maxSAHDepth + 33

  private let boxMin: [SIMD3<Double>], boxMax: [SIMD3<Double>]
  private let centroids: [SIMD3<Double>]
  /// Triangle indices, partitioned in place into leaf order.
  private(set) var order: [Int32]
  private(set) var nodes: [Node] = []
  private(set) var rootBounds = AxisAlignedBox<Double>.empty
  // Scratch: per axis and bin, box and count.
  private var binMin = [SIMD3<Double>](repeating: .zero, count: 3 * bins)
  private var binMax = [SIMD3<Double>](repeating: .zero, count: 3 * bins)
  private var binCount = [Int](repeating: 0, count: 3 * bins)

  init(positions: [SIMD3<Double>], indices: [Int]) {
    let count = indices.count / 3
    var boxMin = [SIMD3<Double>](repeating: .zero, count: count)
    var boxMax = boxMin, centroids = boxMin
    for t in 0..<count {
      let p0 = positions[indices[3 * t]], p1 = positions[indices[3 * t + 1]],
        p2 = positions[indices[3 * t + 2]]
      boxMin[t] = Lanes.min(Lanes.min(p0, p1), p2)
      boxMax[t] = Lanes.max(Lanes.max(p0, p1), p2)
      centroids[t] = (boxMin[t] + boxMax[t]) * 0.5
    }
    self.boxMin = boxMin
    self.boxMax = boxMax
    self.centroids = centroids
    order = (0..<Int32(count)).map { $0 }
  }

  /// A set of triangles with its bounds and centroid bounds.
  struct Span {
    var range: Range<Int>
    var lower: SIMD3<Double>, upper: SIMD3<Double>
    var centroidLower: SIMD3<Double>, centroidUpper: SIMD3<Double>
  }

  mutating func build() {
    let count = order.count
    nodes.reserveCapacity(2 * count / Self.maxLeafSize + 2)
    var span = Span(
      range: 0..<count, lower: SIMD3(repeating: .infinity), upper: SIMD3(repeating: -.infinity),
      centroidLower: SIMD3(repeating: .infinity), centroidUpper: SIMD3(repeating: -.infinity))
    for t in 0..<count {
      span.lower = Lanes.min(span.lower, boxMin[t])
      span.upper = Lanes.max(span.upper, boxMax[t])
      span.centroidLower = Lanes.min(span.centroidLower, centroids[t])
      span.centroidUpper = Lanes.max(span.centroidUpper, centroids[t])
    }
    rootBounds = AxisAlignedBox(min: span.lower, max: span.upper)
    nodes.append(Node())
    if count <= Self.maxLeafSize {
      setChild(of: 0, side: 0, span: span, leaf: true)
      setEmpty(of: 0, side: 1, at: count)
      return
    }
    buildChildren(of: 0, span, depth: 1)
  }

  /// The cost of testing `count` triangles, in packet tests (four triangles each).
  static func packets(_ count: Int) -> Double { Double((count + 3) / 4) }

  static func halfArea(_ lower: SIMD3<Double>, _ upper: SIMD3<Double>) -> Double {
    let d = upper - lower
    return d.x * d.y + d.y * d.z + d.z * d.x
  }

  /// The best binned-SAH split of `span` (axis and first bin of the right side), or nil when
  /// every centroid is the same.
  private mutating func bestSplit(_ span: Span) -> (axis: Int, bin: Int, cost: Double)? {
    let extent = span.centroidUpper - span.centroidLower
    let bins = Self.bins
    let scale = SIMD3<Double>(
      extent.x > 0 ? Double(bins) * (1 - 1e-12) / extent.x : 0,
      extent.y > 0 ? Double(bins) * (1 - 1e-12) / extent.y : 0,
      extent.z > 0 ? Double(bins) * (1 - 1e-12) / extent.z : 0)
    var best: (axis: Int, bin: Int, cost: Double)? = nil
    let total = span.range.count
    binMin.withUnsafeMutableBufferPointer { binMin in
      binMax.withUnsafeMutableBufferPointer { binMax in
        binCount.withUnsafeMutableBufferPointer { binCount in
          for i in 0..<(3 * bins) {
            binMin[i] = SIMD3(repeating: .infinity)
            binMax[i] = SIMD3(repeating: -.infinity)
            binCount[i] = 0
          }
          order.withUnsafeBufferPointer { order in
            centroids.withUnsafeBufferPointer { centroids in
              boxMin.withUnsafeBufferPointer { boxMin in
                boxMax.withUnsafeBufferPointer { boxMax in
                  for i in span.range {
                    let t = Int(order[i])
                    let b = (centroids[t] - span.centroidLower) * scale
                    let lo = boxMin[t], hi = boxMax[t]
                    let x = min(bins - 1, Int(b.x)), y = bins + min(bins - 1, Int(b.y))
                    let z = 2 * bins + min(bins - 1, Int(b.z))
                    binMin[x] = Lanes.min(binMin[x], lo)
                    binMax[x] = Lanes.max(binMax[x], hi)
                    binCount[x] += 1
                    binMin[y] = Lanes.min(binMin[y], lo)
                    binMax[y] = Lanes.max(binMax[y], hi)
                    binCount[y] += 1
                    binMin[z] = Lanes.min(binMin[z], lo)
                    binMax[z] = Lanes.max(binMax[z], hi)
                    binCount[z] += 1
                  }
                }
              }
            }
          }
          withUnsafeTemporaryAllocation(of: Double.self, capacity: bins) { rightArea in
            for axis in 0..<3 where extent[axis] > 0 {
              let base = axis * bins
              var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
              var rightCount = 0
              for bin in stride(from: bins - 1, to: 0, by: -1) {
                lo = Lanes.min(lo, binMin[base + bin])
                hi = Lanes.max(hi, binMax[base + bin])
                rightCount += binCount[base + bin]
                rightArea[bin] = rightCount == 0 ? 0 : Self.halfArea(lo, hi)
              }
              lo = SIMD3(repeating: .infinity)
              hi = SIMD3(repeating: -.infinity)
              var leftCount = 0
              for bin in 1..<bins {
                lo = Lanes.min(lo, binMin[base + bin - 1])
                hi = Lanes.max(hi, binMax[base + bin - 1])
                leftCount += binCount[base + bin - 1]
                guard leftCount > 0, leftCount < total else { continue }
                let cost =
                  Self.halfArea(lo, hi) * Self.packets(leftCount) + rightArea[bin]
                  * Self.packets(total - leftCount)
                if best == nil || cost < best!.cost { best = (axis, bin, cost) }
              }
            }
          }
        }
      }
    }
    return best
  }

  /// Splits `span` into two spans (in place in `order`), by SAH or by the median.
  private mutating func split(_ span: Span, depth: Int) -> (Span, Span)? {
    var axis = 0, position = 0.0
    let n = span.range.count
    let extent = span.centroidUpper - span.centroidLower
    // A leaf's triangles are tested four at once (``LeafTriangles``): up to four cost one test,
    // which no split can beat.
    if n <= Self.maxLeafSize { return nil }
    if depth < Self.maxSAHDepth, let best = bestSplit(span) {
      axis = best.axis
      position =
        span.centroidLower[axis] + Double(best.bin) * extent[axis] / (Double(Self.bins) * (1 - 1e-12))
    } else {
      axis = extent.x >= extent.y ? (extent.x >= extent.z ? 0 : 2) : (extent.y >= extent.z ? 1 : 2)
      position = .nan  // median by count below
    }
    var middle = span.range.lowerBound
    if position.isNaN || extent[axis] == 0 {
      middle = (span.range.lowerBound + span.range.upperBound) / 2
    } else {
      var i = span.range.lowerBound, j = span.range.upperBound - 1
      while i <= j {
        if centroids[Int(order[i])][axis] < position {
          i += 1
        } else {
          order.swapAt(i, j)
          j -= 1
        }
      }
      middle = i
      if middle == span.range.lowerBound || middle == span.range.upperBound {
        middle = (span.range.lowerBound + span.range.upperBound) / 2
      }
    }
    return (self.span(span.range.lowerBound..<middle), self.span(middle..<span.range.upperBound))
  }

  private func span(_ range: Range<Int>) -> Span {
    var s = Span(
      range: range, lower: SIMD3(repeating: .infinity), upper: SIMD3(repeating: -.infinity),
      centroidLower: SIMD3(repeating: .infinity), centroidUpper: SIMD3(repeating: -.infinity))
    for i in range {
      let t = Int(order[i])
      s.lower = Lanes.min(s.lower, boxMin[t])
      s.upper = Lanes.max(s.upper, boxMax[t])
      s.centroidLower = Lanes.min(s.centroidLower, centroids[t])
      s.centroidUpper = Lanes.max(s.centroidUpper, centroids[t])
    }
    return s
  }

  /// Fills node `index`'s two children from `span`, which is split in two.
  private mutating func buildChildren(of index: Int, _ span: Span, depth: Int) {
    guard let (left, right) = split(span, depth: depth) else {
      setChild(of: index, side: 0, span: span, leaf: true)
      setEmpty(of: index, side: 1, at: span.range.upperBound)
      return
    }
    for (side, part) in [left, right].enumerated() {
      if part.range.count <= Self.maxLeafSize {
        setChild(of: index, side: side, span: part, leaf: true)
      } else {
        let child = nodes.count
        nodes.append(Node())
        setChild(of: index, side: side, span: part, leaf: false, child: Int32(child))
        buildChildren(of: child, part, depth: depth + 1)
      }
    }
  }

  private mutating func setChild(of index: Int, side: Int, span: Span, leaf: Bool, child: Int32 = 0) {
    setChild(
      of: index, side: side, lower: span.lower, upper: span.upper,
      reference: leaf ? ~Int32(span.range.lowerBound) : child, count: leaf ? Int32(span.range.count) : 0)
  }

  private mutating func setChild(
    of index: Int, side: Int, lower: SIMD3<Double>, upper: SIMD3<Double>, reference: Int32, count: Int32
  ) {
    nodes[index].minX[side] = lower.x.floatBelow
    nodes[index].minY[side] = lower.y.floatBelow
    nodes[index].minZ[side] = lower.z.floatBelow
    nodes[index].maxX[side] = upper.x.floatAbove
    nodes[index].maxY[side] = upper.y.floatAbove
    nodes[index].maxZ[side] = upper.z.floatAbove
    if side == 0 {
      nodes[index].left = reference
      nodes[index].leftCount = count
    } else {
      nodes[index].right = reference
      nodes[index].rightCount = count
    }
  }

  /// An empty leaf (a node with a single child): never hit, nothing to test.
  private mutating func setEmpty(of index: Int, side: Int, at position: Int) {
    setChild(
      of: index, side: side,
      span: Span(
        range: position..<position, lower: SIMD3(repeating: .infinity), upper: SIMD3(repeating: -.infinity),
        centroidLower: .zero, centroidUpper: .zero), leaf: true)
  }
}
