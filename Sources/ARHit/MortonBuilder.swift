import ARMath

/// Morton-order construction (LBVH, Lauterbach et al. 2009) for ``BVHQuality/fast``: the tree
/// for a few rays per build, as taps on a mesh that just changed, where the build is most of the
/// cost.
///
/// Triangles are sorted by the Morton code of their centroids (a radix sort, linear in the
/// count); the tree is then the sorted codes split where their highest differing bit changes,
/// emitted straight into 4-wide nodes, with boxes that come up from the leaves. No
/// per-triangle boxes, no binary tree to collapse: a build allocates its sort keys and its
/// outputs, which kept both the work and the page faults of a fresh build small.
struct MortonBuilder {
  static let maxLeafSize = BVHBuilder.maxLeafSize
  /// Beyond this many binary splits on one path, ranges split at the middle (only identical
  /// codes get there), so the depth stays bounded.
  static let maxSplitDepth = BVHBuilder.maxSAHDepth

  /// Triangle indices in leaf order.
  let order: [Int32]
  /// Their Morton codes, sorted.
  private let codes: [UInt32]

  /// Sorts the triangles (three vertex indices each into `positions`) by Morton code.
  init(positions: [SIMD3<Double>], indices: [Int]) {
    let count = indices.count / 3
    // Centroids in Float: the codes only order the triangles; boxes come from the vertices.
    var lower = SIMD4<Float>(repeating: .infinity), upper = SIMD4<Float>(repeating: -.infinity)
    let centroids = [SIMD4<Float>](unsafeUninitializedCapacity: count) { out, initialized in
      positions.withUnsafeBufferPointer { p in
        indices.withUnsafeBufferPointer { index in
          for t in 0..<count {
            let a = p[index[3 * t]], b = p[index[3 * t + 1]], c = p[index[3 * t + 2]]
            let middle = (LaneMath.min(LaneMath.min(a, b), c) + LaneMath.max(LaneMath.max(a, b), c)) * 0.5
            let centroid = SIMD4(Float(middle.x), Float(middle.y), Float(middle.z), 0)
            out[t] = centroid
            lower = LaneMath.min(lower, centroid)
            upper = LaneMath.max(upper, centroid)
          }
        }
      }
      initialized = count
    }
    let extent = upper - lower
    let scale = SIMD4<Float>(
      extent.x > 0 ? 1023 / extent.x : 0, extent.y > 0 ? 1023 / extent.y : 0,
      extent.z > 0 ? 1023 / extent.z : 0, 0)
    var keys = [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
      for t in 0..<count {
        let q = LaneMath.min((centroids[t] - lower) * scale, SIMD4(repeating: 1023))
        out[t] = Self.spread(UInt32(q.x)) << 2 | Self.spread(UInt32(q.y)) << 1 | Self.spread(UInt32(q.z))
      }
      initialized = count
    }
    order = Self.sort(&keys)
    codes = keys
  }

  /// The low 10 bits of `v` moved to every third bit.
  private static func spread(_ v: UInt32) -> UInt32 {
    var x = v & 0x3FF
    x = (x | (x << 16)) & 0x0300_00FF
    x = (x | (x << 8)) & 0x0300_F00F
    x = (x | (x << 4)) & 0x030C_30C3
    x = (x | (x << 2)) & 0x0924_9249
    return x
  }

  /// Sorts the 30-bit `keys` in place (a stable LSD radix sort, 10 bits a pass; the three
  /// histograms in one pass) and returns the positions they came from.
  private static func sort(_ keys: inout [UInt32]) -> [Int32] {
    let count = keys.count
    var positions = [Int32](repeating: 0, count: count)
    var keysOut = [UInt32](repeating: 0, count: count)
    var positionsOut = positions
    var histogram = [Int](repeating: 0, count: 3 * 1024)
    histogram.withUnsafeMutableBufferPointer { h in
      keys.withUnsafeBufferPointer { k in
        for key in k {
          h[Int(key & 1023)] += 1
          h[1024 + Int((key >> 10) & 1023)] += 1
          h[2048 + Int((key >> 20) & 1023)] += 1
        }
      }
      for digit in 0..<3 {  // counts → first output position of each bucket
        var sum = 0
        for b in (1024 * digit)..<(1024 * (digit + 1)) { (h[b], sum) = (sum, sum + h[b]) }
      }
      for digit in 0..<3 {
        let shift = UInt32(10 * digit), bucketBase = 1024 * digit
        keys.withUnsafeBufferPointer { k in
          keysOut.withUnsafeMutableBufferPointer { kOut in
            positions.withUnsafeBufferPointer { p in
              positionsOut.withUnsafeMutableBufferPointer { pOut in
                for i in 0..<count {
                  let key = k[i]
                  let bucket = bucketBase + Int((key >> shift) & 1023)
                  let at = h[bucket]
                  h[bucket] = at + 1
                  kOut[at] = key
                  pOut[at] = digit == 0 ? Int32(truncatingIfNeeded: i) : p[i]
                }
              }
            }
          }
        }
        swap(&keys, &keysOut)
        swap(&positions, &positionsOut)
      }
    }
    return positions
  }

  /// Where sorted `range` splits: where its codes' highest differing bit changes (a spatial
  /// median); identical codes, or a path deeper than ``maxSplitDepth``, split at the middle.
  private func split(_ range: Range<Int>, depth: Int, codes: UnsafeBufferPointer<UInt32>) -> Int {
    let first = codes[range.lowerBound], last = codes[range.upperBound - 1]
    guard first != last && depth < Self.maxSplitDepth else {
      return (range.lowerBound + range.upperBound) / 2
    }
    let bit = UInt32(1) << (31 - (first ^ last).leadingZeroBitCount)
    var lo = range.lowerBound, hi = range.upperBound - 1  // the first code with `bit` set
    while lo < hi {
      let mid = (lo + hi) / 2
      if codes[mid] & bit != 0 { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  /// The 4-wide tree over the triangles (leaves refer to ranges of ``order``), root first and
  /// depth first; its depth in wide levels; and the bounds of the whole mesh.
  func wideNodes(positions: [SIMD3<Double>], indices: [Int])
    -> (nodes: [WideNode], depth: Int, bounds: AxisAlignedBox<Double>)
  {
    var nodes: [WideNode] = []
    nodes.reserveCapacity(order.count / 2 + 1)
    let root = codes.withUnsafeBufferPointer { codes in
      order.withUnsafeBufferPointer { order in
        positions.withUnsafeBufferPointer { positions in
          indices.withUnsafeBufferPointer { indices in
            emit(
              0..<order.count, depth: 0, codes: codes, triangles: Triangles(order, positions, indices),
              into: &nodes)
          }
        }
      }
    }
    return (nodes, root.height, AxisAlignedBox(min: root.lower, max: root.upper))
  }

  /// Appends the wide node over sorted `range` and its subtree: the range split by
  /// ``split(_:depth:codes:)`` into up to four parts, always splitting the part with the most
  /// triangles (a binary LBVH made four-wide, opened by count where the SAH build opens by area:
  /// no boxes are known yet). Returns the node's index, the subtree's height in
  /// wide levels, and its bounds.
  private func emit(
    _ range: Range<Int>, depth: Int, codes: UnsafeBufferPointer<UInt32>, triangles: Triangles,
    into nodes: inout [WideNode]
  ) -> (index: Int32, height: Int, lower: SIMD3<Double>, upper: SIMD3<Double>) {
    var starts = SIMD4<Int>(range.lowerBound, 0, 0, 0), ends = SIMD4<Int>(range.upperBound, 0, 0, 0)
    var depths = SIMD4<Int>(repeating: depth)
    var lanes = 1
    while lanes < 4 {
      var largest = -1, most = Self.maxLeafSize
      for lane in 0..<lanes where ends[lane] - starts[lane] > most {
        (largest, most) = (lane, ends[lane] - starts[lane])
      }
      guard largest >= 0 else { break }
      let middle = split(starts[largest]..<ends[largest], depth: depths[largest], codes: codes)
      (starts[lanes], ends[lanes]) = (middle, ends[largest])
      ends[largest] = middle
      depths[largest] += 1
      depths[lanes] = depths[largest]
      lanes += 1
    }
    let position = nodes.count
    nodes.append(WideNode())
    var node = WideNode()
    var lower = SIMD3<Double>(repeating: .infinity), upper = SIMD3<Double>(repeating: -.infinity)
    var height = 1
    for lane in 0..<lanes {
      let part = starts[lane]..<ends[lane]
      var laneLower = SIMD3<Double>(repeating: .infinity), laneUpper = SIMD3<Double>(repeating: -.infinity)
      if part.count <= Self.maxLeafSize {
        for k in part {
          let t = 3 * Int(triangles.order[k])
          for corner in 0..<3 {
            let v = triangles.positions[triangles.indices[t + corner]]
            laneLower = LaneMath.min(laneLower, v)
            laneUpper = LaneMath.max(laneUpper, v)
          }
        }
        node.child[lane] = ~Int32(part.lowerBound)
        node.count[lane] = Int32(part.count)
      } else {
        let subtree = emit(part, depth: depths[lane], codes: codes, triangles: triangles, into: &nodes)
        (laneLower, laneUpper) = (subtree.lower, subtree.upper)
        node.child[lane] = subtree.index
        height = max(height, subtree.height + 1)
      }
      // Rounded outwards, so the Float box still holds the triangles.
      node.setBox(
        lane, lower: SIMD3(laneLower.x.floatBelow, laneLower.y.floatBelow, laneLower.z.floatBelow),
        upper: SIMD3(laneUpper.x.floatAbove, laneUpper.y.floatAbove, laneUpper.z.floatAbove))
      lower = LaneMath.min(lower, laneLower)
      upper = LaneMath.max(upper, laneUpper)
    }
    nodes[position] = node
    return (Int32(position), height, lower, upper)
  }

  /// The mesh as the emission reads it: triangles in leaf order, their vertex indices, positions.
  private struct Triangles {
    let order: UnsafeBufferPointer<Int32>
    let positions: UnsafeBufferPointer<SIMD3<Double>>
    let indices: UnsafeBufferPointer<Int>
    init(
      _ order: UnsafeBufferPointer<Int32>, _ positions: UnsafeBufferPointer<SIMD3<Double>>,
      _ indices: UnsafeBufferPointer<Int>
    ) {
      (self.order, self.positions, self.indices) = (order, positions, indices)
    }
  }
}
