/// A node of the 4-wide tree that ``BoundingVolumeHierarchy`` traverses: the boxes of up to four
/// children, one `SIMD4` lane a child, so one visit tests all four boxes at once.
///
/// Boxes are `Float`, rounded outwards from the build's `Double` boxes (so they still contain
/// their triangles). 128 bytes: two cache lines that incoherent rays fetch together, where the
/// binary tree made them wait for twice as many nodes one after another.
@usableFromInline
struct WideNode: Sendable {
  // Lower and upper bounds of the four children per axis. Unused lanes hold an empty box
  // (lower +∞, upper −∞), which no ray hits.
  @usableFromInline var lowerX = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperX = SIMD4<Float>(repeating: -.infinity)
  @usableFromInline var lowerY = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperY = SIMD4<Float>(repeating: -.infinity)
  @usableFromInline var lowerZ = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperZ = SIMD4<Float>(repeating: -.infinity)
  /// Per lane: an inner node's index (≥ 0), or a leaf as `~packet` (< 0): its
  /// ``LeafTriangles`` packet, holding `count` triangles. (The builders first write `~first`,
  /// the leaf's triangles being `first ..< first + count` in their leaf order; packing the
  /// leaves replaces it.)
  @usableFromInline var child = SIMD4<Int32>(repeating: 0)
  @usableFromInline var count = SIMD4<Int32>(repeating: 0)

  // Byte offsets of the fields, as literals: read through `static let`s, each use in the
  // traversal paid a lazy-initialisation check (3% of a ray). `offsetsMatchLayout()` holds them to
  // the real layout.
  /// Byte offsets of the lower bound vectors (x, y, z), for the traversal's per-ray choice of
  /// the near and far planes (``WideBoxRay``).
  @usableFromInline static var lowerOffsets: SIMD3<Int> { SIMD3(0, 32, 64) }
  /// Byte offsets of the upper bound vectors (x, y, z).
  @usableFromInline static var upperOffsets: SIMD3<Int> { SIMD3(16, 48, 80) }
  @usableFromInline static var childOffset: Int { 96 }

  /// Whether the offset literals match the layout (asserted in debug builds, at each build).
  static func offsetsMatchLayout() -> Bool {
    let layout = MemoryLayout<WideNode>.self
    return lowerOffsets
      == SIMD3(layout.offset(of: \.lowerX)!, layout.offset(of: \.lowerY)!, layout.offset(of: \.lowerZ)!)
      && upperOffsets
        == SIMD3(layout.offset(of: \.upperX)!, layout.offset(of: \.upperY)!, layout.offset(of: \.upperZ)!)
      && childOffset == layout.offset(of: \.child)!
      && layout.stride == 128
  }
}

extension WideNode {
  /// Lane `lane`'s child reference in the node at `node`.
  @inlinable @inline(__always)
  static func child(_ node: UnsafeRawPointer, _ lane: Int) -> Int32 {
    node.load(fromByteOffset: childOffset + 4 * lane, as: Int32.self)
  }

  /// The lanes of the node at `node` that are leaves, a bit each (lane 0 the lowest): the sign
  /// bits of the child references.
  @inlinable @inline(__always)
  static func leafLanes(_ node: UnsafeRawPointer) -> Int {
    let signs = node.load(fromByteOffset: childOffset, as: SIMD4<UInt32>.self) &>> 31
    return Int(signs.x | signs.y &<< 1 | signs.z &<< 2 | signs.w &<< 3)
  }

  /// Surface area of lane `lane`'s box, halved.
  func halfArea(_ lane: Int) -> Float {
    let d = SIMD3(upperX[lane] - lowerX[lane], upperY[lane] - lowerY[lane], upperZ[lane] - lowerZ[lane])
    return d.x * d.y + d.y * d.z + d.z * d.x
  }

  /// Copies lane `source` of `node` (default: this node) into lane `target`.
  mutating func copyLane(_ source: Int, of node: WideNode? = nil, to target: Int) {
    let from = node ?? self
    lowerX[target] = from.lowerX[source]
    lowerY[target] = from.lowerY[source]
    lowerZ[target] = from.lowerZ[source]
    upperX[target] = from.upperX[source]
    upperY[target] = from.upperY[source]
    upperZ[target] = from.upperZ[source]
    child[target] = from.child[source]
    count[target] = from.count[source]
  }
}

extension BVHBuilder {
  /// The binary tree collapsed into ``WideNode``s, depth first from the root, and the wide
  /// tree's depth. Each wide node takes a binary node's two children and keeps opening the inner
  /// child with the largest surface area until it has four (as Embree and Wald et al. collapse
  /// a BVH2 into a BVH4). Leaves and their triangle order are unchanged.
  func wideNodes() -> (nodes: [WideNode], depth: Int) {
    var wide: [WideNode] = []
    wide.reserveCapacity(nodes.count / 2 + 1)
    let depth = collapse(0, into: &wide).depth
    return (wide, depth)
  }

  /// Appends the wide node for binary node `index` and its subtree; returns its index and the
  /// subtree's depth. Allocates nothing but the output: taps build a tree per frame.
  private func collapse(_ index: Int32, into wide: inout [WideNode]) -> (index: Int32, depth: Int) {
    var node = WideNode()
    var lanes = 0
    // Lanes hold binary references until the subtrees below are collapsed.
    func appendChildren(of index: Int32) {
      let n = nodes[Int(index)]
      for side in 0..<2 {
        let reference = side == 0 ? n.left : n.right, count = side == 0 ? n.leftCount : n.rightCount
        if reference < 0 && count == 0 { continue }  // an empty leaf
        node.lowerX[lanes] = n.minX[side]
        node.lowerY[lanes] = n.minY[side]
        node.lowerZ[lanes] = n.minZ[side]
        node.upperX[lanes] = n.maxX[side]
        node.upperY[lanes] = n.maxY[side]
        node.upperZ[lanes] = n.maxZ[side]
        node.child[lanes] = reference
        node.count[lanes] = count
        lanes += 1
      }
    }
    appendChildren(of: index)
    while lanes < 4 {
      // Open the inner child most likely to be entered: the last lane takes its place, and its
      // children join at the end.
      var open = -1, largest: Float = -1
      for lane in 0..<lanes where node.child[lane] >= 0 && node.halfArea(lane) > largest {
        (open, largest) = (lane, node.halfArea(lane))
      }
      guard open >= 0 else { break }
      let reference = node.child[open]
      node.copyLane(lanes - 1, to: open)
      node.copyLane(0, of: WideNode(), to: lanes - 1)  // empty again
      lanes -= 1
      appendChildren(of: reference)
    }
    let position = wide.count
    wide.append(node)
    var depth = 1
    for lane in 0..<lanes where node.child[lane] >= 0 {
      let subtree = collapse(node.child[lane], into: &wide)
      wide[position].child[lane] = subtree.index
      depth = max(depth, subtree.depth + 1)
    }
    return (Int32(position), depth)
  }
}
