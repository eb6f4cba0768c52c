import ARMath

/// The 4-wide tree collapsed to eight children a node, for the AVX2 ray kernel
/// (`arscene_closest_hits_avx2` in CVectorKernels): one visit tests eight `Float` boxes in one
/// set of AVX2 instructions, and a ray visits about half as many nodes as in the 4-wide tree.
///
/// A node is eight `SIMD8<Float>` (256 bytes): the lower and upper bounds of its children on x,
/// y and z (six vectors, one lane a child), then the child references as `Int32` bit patterns
/// (an inner node's index, or a leaf as `~packet`, the ``LeafTriangles`` packet of the 4-wide
/// tree's leaf), then padding. Unused lanes hold an empty box (lower +∞, upper −∞). The boxes
/// are the 4-wide tree's, so they stay conservative.
///
/// Collapsing: a node takes its 4-wide node's children, then repeatedly replaces the inner child
/// of largest surface area by that child's own children while they fit in eight lanes (as
/// Embree widens its binary SAH trees).
struct EightWideTree: Sendable {
  /// Vectors a node.
  static let vectorsPerNode = 8
  /// Offset of the child references in a node, in vectors.
  static let childVector = 6
  /// The nodes, root first, ``vectorsPerNode`` vectors each, each node on its own four cache
  /// lines (an array's elements start 32 bytes into a line, so its nodes straddled five).
  let storage: AlignedNodes
  /// Entries a traversal stack needs: seven a level, and one.
  let stackCapacity: Int

  init(collapsing wide: [WideNode]) {
    var vectors: [SIMD8<Float>] = []
    vectors.reserveCapacity(Self.vectorsPerNode * (wide.count / 2 + 1))
    var depth = 0
    Self.collapse(0, of: wide, into: &vectors, level: 1, depth: &depth)
    storage = AlignedNodes(vectors)
    stackCapacity = 7 * depth + 1
  }

  /// A child of a 4-wide node: its box and reference.
  private struct Lane {
    var lower: SIMD3<Float>, upper: SIMD3<Float>
    var child: Int32
    var halfArea: Float {
      let e = upper - lower
      return e.x * e.y + e.y * e.z + e.z * e.x
    }
  }

  /// The non-empty children of 4-wide node `n`.
  private static func lanes(_ n: Int, _ wide: [WideNode]) -> [Lane] {
    let node = wide[n]
    return (0..<4).compactMap { lane in
      guard node.lowerX[lane] <= node.upperX[lane] else { return nil }
      return Lane(
        lower: SIMD3(node.lowerX[lane], node.lowerY[lane], node.lowerZ[lane]),
        upper: SIMD3(node.upperX[lane], node.upperY[lane], node.upperZ[lane]), child: node.child[lane])
    }
  }

  /// Appends the 8-wide node for 4-wide node `n` and, after it, those of its inner children;
  /// returns its index.
  @discardableResult
  private static func collapse(
    _ n: Int, of wide: [WideNode], into vectors: inout [SIMD8<Float>], level: Int, depth: inout Int
  ) -> Int32 {
    depth = max(depth, level)
    var children = lanes(n, wide)
    while true {
      var chosen: (index: Int, lanes: [Lane], area: Float)? = nil
      for (i, lane) in children.enumerated() where lane.child >= 0 {
        let grandchildren = lanes(Int(lane.child), wide)
        guard children.count - 1 + grandchildren.count <= 8 else { continue }
        if chosen == nil || lane.halfArea > chosen!.area { chosen = (i, grandchildren, lane.halfArea) }
      }
      guard let chosen else { break }
      children.replaceSubrange(chosen.index...chosen.index, with: chosen.lanes)
    }
    let index = vectors.count / vectorsPerNode
    var node = [SIMD8<Float>](repeating: SIMD8(repeating: .infinity), count: vectorsPerNode)
    for v in [1, 3, 5] { node[v] = SIMD8(repeating: -.infinity) }
    node[childVector] = .zero
    node[childVector + 1] = .zero
    vectors.append(contentsOf: node)
    var references = SIMD8<Int32>(repeating: 0)
    for (lane, child) in children.enumerated() {
      let base = index * vectorsPerNode
      vectors[base][lane] = child.lower.x
      vectors[base + 1][lane] = child.upper.x
      vectors[base + 2][lane] = child.lower.y
      vectors[base + 3][lane] = child.upper.y
      vectors[base + 4][lane] = child.lower.z
      vectors[base + 5][lane] = child.upper.z
      references[lane] =
        child.child < 0
        ? child.child : collapse(Int(child.child), of: wide, into: &vectors, level: level + 1, depth: &depth)
    }
    vectors[index * vectorsPerNode + childVector] = unsafeBitCast(references, to: SIMD8<Float>.self)
    return Int32(index)
  }
}

/// Node vectors in memory aligned to 256 bytes, freed with the tree.
final class AlignedNodes: @unchecked Sendable {
  // Written once, in init; read only after.
  let pointer: UnsafeMutablePointer<SIMD8<Float>>
  let count: Int

  init(_ vectors: [SIMD8<Float>]) {
    count = vectors.count
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: max(1, count) * MemoryLayout<SIMD8<Float>>.stride, alignment: 256)
    pointer = raw.bindMemory(to: SIMD8<Float>.self, capacity: count)
    _ = UnsafeMutableBufferPointer(start: pointer, count: count).initialize(from: vectors)
  }

  deinit { pointer.deallocate() }
}
