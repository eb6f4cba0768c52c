import ARMath

/// Top-down binned-SAH construction of ``EightWideTree``'s nodes over the leaves of a 4-wide
/// tree. A node's parts of more than eight leaves are split in two, the part with the largest
/// surface area first, each at the cheapest of up to 16 planes per axis between bins of leaf
/// centres, until the node has eight parts; lanes still free then take the leaves of the
/// largest parts that fit in them (as Embree opens the largest child of its wide nodes, with
/// the spare lanes used so that the nodes below are few and full). A part of one leaf is a
/// leaf lane; a larger part is an inner node, built the same way.
///
/// The 4-wide tree's leaves and packets stay as they are: only the nodes above them change.
struct EightWideBuilder {
  /// A leaf of the 4-wide tree: its box and its reference (`~packet`).
  struct Leaf {
    var lower: SIMD4<Float>
    var upper: SIMD4<Float>
    var reference: Int32
  }

  /// Leaves in a contiguous range of the leaf array, and their bounds.
  private struct Part {
    var range: Range<Int>
    var lower: SIMD4<Float>
    var upper: SIMD4<Float>
  }

  private var vectors: [SIMD8<Float>] = []
  /// Levels of the tree built.
  private(set) var depth = 0

  private static let maxBins = 16

  /// The leaves of 4-wide tree `wide`, depth first.
  static func leaves(of wide: [WideNode]) -> [Leaf] {
    var found: [Leaf] = []
    guard !wide.isEmpty else { return found }
    var stack = [0]
    while let n = stack.popLast() {
      let node = wide[n]
      for lane in (0..<4).reversed() where node.lowerX[lane] <= node.upperX[lane] {
        if node.child[lane] >= 0 {
          stack.append(Int(node.child[lane]))
          continue
        }
        found.append(
          Leaf(
            lower: SIMD4(node.lowerX[lane], node.lowerY[lane], node.lowerZ[lane], 0),
            upper: SIMD4(node.upperX[lane], node.upperY[lane], node.upperZ[lane], 0),
            reference: node.child[lane]))
      }
    }
    return found
  }

  /// The nodes over `leaves` (reordered as they are split), root first,
  /// ``EightWideTree/vectorsPerNode`` vectors each. The root's subtrees are built side by side
  /// on up to `threads` threads when there are many leaves; each is a contiguous block of the
  /// depth-first order, so the nodes are the same bytes on any number of threads.
  mutating func build(over leaves: consuming [Leaf], threads: Int) -> [SIMD8<Float>] {
    vectors = []
    depth = 1
    guard !leaves.isEmpty else {
      vectors = Array(repeating: .zero, count: EightWideTree.vectorsPerNode)
      write(parts: [], references: .zero, at: 0)
      return vectors
    }
    vectors.reserveCapacity(EightWideTree.vectorsPerNode * (leaves.count / 6 + 1))
    leaves.withUnsafeMutableBufferPointer { leaves in
      let root = Self.bounded(leaves, 0..<leaves.count)
      if threads > 1 && leaves.count >= Self.parallelLeaves {
        emitRoot(leaves, root, threads: threads)
      } else {
        _ = emit(leaves, root, level: 1)
      }
    }
    return vectors
  }

  /// Leaves from which the root's subtrees are built in parallel (below it, the whole tree
  /// builds on one core in about a millisecond).
  static let parallelLeaves = 4096

  /// Appends the node over `part` and then its subtree, depth first; returns its index.
  private mutating func emit(_ leaves: UnsafeMutableBufferPointer<Leaf>, _ part: Part, level: Int) -> Int32 {
    depth = max(depth, level)
    let parts = Self.parts(of: part, leaves)
    let index = vectors.count / EightWideTree.vectorsPerNode
    vectors.append(contentsOf: repeatElement(.zero, count: EightWideTree.vectorsPerNode))
    var references = SIMD8<Int32>.zero
    for (i, p) in parts.enumerated() {
      references[i] =
        p.range.count == 1 ? leaves[p.range.lowerBound].reference : emit(leaves, p, level: level + 1)
    }
    write(parts: parts, references: references, at: index)
    return Int32(index)
  }

  /// The root node, with its inner children's subtrees built on `threads` threads (each on its
  /// own range of `leaves`) and appended in lane order, their references moved by where they
  /// land: what ``emit(_:_:level:)`` writes on one thread.
  private mutating func emitRoot(_ leaves: UnsafeMutableBufferPointer<Leaf>, _ root: Part, threads: Int) {
    let parts = Self.parts(of: root, leaves)
    let subtrees = Slots<(vectors: [SIMD8<Float>], depth: Int)>(count: parts.count)
    let shared = UnsafeSendableMutablePointer(leaves.baseAddress!)
    let count = leaves.count
    forEachBand(parts.count, threads: threads) { i in
      guard parts[i].range.count > 1 else { return subtrees.set(i, ([], 1)) }
      var builder = EightWideBuilder()
      _ = builder.emit(UnsafeMutableBufferPointer(start: shared.pointer, count: count), parts[i], level: 2)
      subtrees.set(i, (builder.vectors, builder.depth))
    }
    vectors.append(contentsOf: repeatElement(.zero, count: EightWideTree.vectorsPerNode))
    var references = SIMD8<Int32>.zero
    for (i, subtree) in subtrees.values.enumerated() {
      guard parts[i].range.count > 1 else {
        references[i] = leaves[parts[i].range.lowerBound].reference
        continue
      }
      let offset = vectors.count / EightWideTree.vectorsPerNode
      references[i] = Int32(offset)
      depth = max(depth, subtree.depth)
      vectors.append(contentsOf: subtree.vectors)
      Self.relocate(&vectors[(offset * EightWideTree.vectorsPerNode)...], by: Int32(offset))
    }
    write(parts: parts, references: references, at: 0)
  }

  /// Adds `offset` to the inner references of `nodes` (a subtree built on its own, numbered
  /// from 0): those of used lanes, not leaves.
  private static func relocate(_ nodes: inout ArraySlice<SIMD8<Float>>, by offset: Int32) {
    for base in stride(from: nodes.startIndex, to: nodes.endIndex, by: EightWideTree.vectorsPerNode) {
      var references = unsafeBitCast(nodes[base + EightWideTree.childVector], to: SIMD8<Int32>.self)
      for lane in 0..<8 where nodes[base][lane] <= nodes[base + 1][lane] && references[lane] >= 0 {
        references[lane] += offset
      }
      nodes[base + EightWideTree.childVector] = unsafeBitCast(references, to: SIMD8<Float>.self)
    }
  }

  /// The children of a node over `part`: its parts of more than eight leaves split, the largest
  /// first, while lanes remain; then lanes left over take the leaves of the largest parts that
  /// fit in them, so that the nodes below are few and full (splitting a part of five leaves
  /// would make two nodes).
  private static func parts(of part: Part, _ leaves: UnsafeMutableBufferPointer<Leaf>) -> [Part] {
    var parts = [part]
    while parts.count < 8, let open = largest(parts, where: { $0.range.count > 8 }) {
      let (left, right) = split(leaves, parts[open])
      parts[open] = left
      parts.append(right)
    }
    while let open = largest(parts, where: { $0.range.count > 1 && parts.count - 1 + $0.range.count <= 8 }) {
      let range = parts[open].range
      parts[open] = bounded(leaves, range.lowerBound..<range.lowerBound + 1)
      for i in range.dropFirst() { parts.append(bounded(leaves, i..<i + 1)) }
    }
    return parts
  }

  /// The index of the part with the largest surface area among those `eligible`, if any.
  private static func largest(_ parts: [Part], where eligible: (Part) -> Bool) -> Int? {
    var open: Int? = nil
    var largest: Float = 0
    for (i, p) in parts.enumerated() where eligible(p) {
      let area = BuildBounds.halfArea(p.lower, p.upper)
      if open == nil || area > largest { (open, largest) = (i, area) }
    }
    return open
  }

  /// Node `index`: the parts' boxes in its lanes (unused lanes empty), then the references.
  private mutating func write(parts: [Part], references: SIMD8<Int32>, at index: Int) {
    let base = index * EightWideTree.vectorsPerNode
    for axis in 0..<3 {
      var lower = SIMD8<Float>(repeating: .infinity), upper = SIMD8<Float>(repeating: -.infinity)
      for (lane, p) in parts.enumerated() {
        lower[lane] = p.lower[axis]
        upper[lane] = p.upper[axis]
      }
      vectors[base + 2 * axis] = lower
      vectors[base + 2 * axis + 1] = upper
    }
    vectors[base + EightWideTree.childVector] = unsafeBitCast(references, to: SIMD8<Float>.self)
  }

  /// `range` of `leaves` with its bounds.
  private static func bounded(_ leaves: UnsafeMutableBufferPointer<Leaf>, _ range: Range<Int>) -> Part {
    var lower = SIMD4<Float>(repeating: .infinity), upper = SIMD4<Float>(repeating: -.infinity)
    for i in range {
      lower = LaneMath.min(lower, leaves[i].lower)
      upper = LaneMath.max(upper, leaves[i].upper)
    }
    return Part(range: range, lower: lower, upper: upper)
  }

  /// `part` (two or more leaves) split in two, in place: at its cheapest centre plane, or in
  /// the middle when no plane has leaves on both sides. The bins span the part's box (doubled,
  /// as the centres are), which holds every centre: no pass to find the centres' own bounds.
  private static func split(_ leaves: UnsafeMutableBufferPointer<Leaf>, _ part: Part) -> (Part, Part) {
    let range = part.range
    let mapping = Mapping(
      low: part.lower + part.lower, high: part.upper + part.upper, bins: min(maxBins, range.count))
    guard let best = cheapestPlane(leaves, range, mapping) else {
      let middle = (range.lowerBound + range.upperBound) / 2
      return (bounded(leaves, range.lowerBound..<middle), bounded(leaves, middle..<range.upperBound))
    }
    var (i, j) = (range.lowerBound, range.upperBound - 1)
    while i <= j {
      if mapping.bins(leaves[i])[best.axis] < best.bin {
        i += 1
      } else {
        leaves.swapAt(i, j)
        j -= 1
      }
    }
    return (
      Part(range: range.lowerBound..<i, lower: best.left.lower, upper: best.left.upper),
      Part(range: i..<range.upperBound, lower: best.right.lower, upper: best.right.upper)
    )
  }

  /// Equal bins over a part's box (doubled, as the leaf centres are) on each axis; the partition
  /// asks the same arithmetic as the binning, so each leaf goes to the side its bin was counted
  /// on.
  private struct Mapping {
    let low: SIMD4<Float>
    /// Bins per unit of doubled centre; 0 on an axis where the box is flat (or its extent too
    /// small or too large for the scale to be a finite `Float`).
    let scale: SIMD4<Float>
    let bins: Int

    init(low: SIMD4<Float>, high: SIMD4<Float>, bins: Int) {
      var scale = SIMD4<Float>.zero
      for axis in 0..<3 {
        // (A subnormal extent would make the scale overflow; an infinite one, zero.)
        let perUnit = Float(bins) / (high[axis] - low[axis])
        if perUnit.isFinite && perUnit > 0 { scale[axis] = perUnit }
      }
      (self.low, self.scale, self.bins) = (low, scale, bins)
      last = SIMD4(repeating: Float(bins - 1))
    }

    private let last: SIMD4<Float>

    /// The bins of `leaf`'s centre on the three axes.
    @inline(__always)
    func bins(_ leaf: Leaf) -> SIMD4<Int32> {
      // Clamped before truncation: a centre beyond Float's range gives NaN (min takes the
      // limit then), and rounding can put the highest centre a hair past the last bin.
      let position = ((leaf.lower + leaf.upper) - low) * scale
      return LaneMath.truncated(LaneMath.max(LaneMath.min(position, last), .zero))
    }
  }

  /// A split plane: its axis, the first bin on its right, and the boxes of the two sides.
  private struct Plane {
    var axis: Int, bin: Int, cost: Float
    var left: (lower: SIMD4<Float>, upper: SIMD4<Float>)
    var right: (lower: SIMD4<Float>, upper: SIMD4<Float>)
  }

  /// The plane between bins with the least surface area heuristic cost (each side's half area
  /// times its leaves), among planes with leaves on both sides, on any axis that can be split.
  private static func cheapestPlane(
    _ leaves: UnsafeMutableBufferPointer<Leaf>, _ range: Range<Int>, _ mapping: Mapping
  ) -> Plane? {
    let bins = mapping.bins
    // Scratch on the machine stack: most splits are of a few leaves.
    return withUnsafeTemporaryAllocation(of: Bin.self, capacity: 3 * maxBins) { scratch in
      let binned = scratch.baseAddress!
      binned.initialize(repeating: Bin(), count: 3 * maxBins)
      for i in range {
        let b = mapping.bins(leaves[i])
        for axis in 0..<3 {
          let k = axis * maxBins + Int(b[axis])
          binned[k].count += 1
          binned[k].lower = LaneMath.min(binned[k].lower, leaves[i].lower)
          binned[k].upper = LaneMath.max(binned[k].upper, leaves[i].upper)
        }
      }
      var best: Plane? = nil
      for axis in 0..<3 where mapping.scale[axis] > 0 {
        let axisBins = binned + axis * maxBins
        // Right sides' boxes, swept from the last bin.
        var lower = SIMD4<Float>(repeating: .infinity), upper = SIMD4<Float>(repeating: -.infinity)
        for b in stride(from: bins - 1, to: 0, by: -1) {
          lower = LaneMath.min(lower, axisBins[b].lower)
          upper = LaneMath.max(upper, axisBins[b].upper)
          (axisBins[b].rightLower, axisBins[b].rightUpper) = (lower, upper)
        }
        (lower, upper) = (SIMD4(repeating: .infinity), SIMD4(repeating: -.infinity))
        var leftCount = 0
        for b in 1..<bins {
          lower = LaneMath.min(lower, axisBins[b - 1].lower)
          upper = LaneMath.max(upper, axisBins[b - 1].upper)
          leftCount += axisBins[b - 1].count
          guard leftCount > 0, leftCount < range.count else { continue }
          let right = (lower: axisBins[b].rightLower, upper: axisBins[b].rightUpper)
          let cost =
            BuildBounds.halfArea(lower, upper) * Float(leftCount) + BuildBounds.halfArea(
              right.lower, right.upper)
            * Float(range.count - leftCount)
          if best == nil || cost < best!.cost {
            best = Plane(axis: axis, bin: b, cost: cost, left: (lower, upper), right: right)
          }
        }
      }
      return best
    }
  }

  /// A bin of leaf centres: the union of their boxes, their count, and the union of the boxes
  /// from it to the last bin.
  private struct Bin {
    var lower = SIMD4<Float>(repeating: .infinity)
    var upper = SIMD4<Float>(repeating: -.infinity)
    var count = 0
    var rightLower = SIMD4<Float>(repeating: .infinity)
    var rightUpper = SIMD4<Float>(repeating: -.infinity)
  }
}
