import ARMath
import Foundation

/// The 4-wide tree collapsed to eight children a node, for the AVX2 ray kernel
/// (`arscene_closest_hits_avx2` in CVectorKernels): one visit tests eight `Float` boxes in one
/// set of AVX2 instructions, and a ray visits about a third fewer nodes than in the 4-wide tree.
///
/// A node is eight `SIMD8<Float>` (256 bytes): the lower and upper bounds of its children on x,
/// y and z (six vectors, one lane a child), then the child references as `Int32` bit patterns
/// (an inner node's index, or a leaf as `~packet`, the ``LeafTriangles`` packet of the 4-wide
/// tree's leaf), then padding. Unused lanes hold an empty box (lower +∞, upper −∞). The boxes
/// are the 4-wide tree's, so they stay conservative.
///
/// Collapsing: a node takes its 4-wide node's children, then repeatedly replaces the inner child
/// of largest surface area by that child's own children while they fit in eight lanes (as
/// Embree widens its binary SAH trees). It runs in one pass over the 4-wide nodes, without
/// allocating per node, when the first batch query asks for the tree (a millisecond or two for
/// 100k triangles).
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
    // No more 8-wide nodes than 4-wide ones: each takes at least one 4-wide node's place.
    let storage = AlignedNodes(vectors: Self.vectorsPerNode * max(1, wide.count))
    var depth = 0
    wide.withUnsafeBufferPointer { wide in
      var collapser = Collapser(wide: wide, out: storage.pointer)
      collapser.collapse(0, level: 1)
      depth = collapser.depth
    }
    self.storage = storage
    stackCapacity = 7 * depth + 1
  }

  /// One pass of collapsing, writing nodes in depth-first order.
  private struct Collapser {
    let wide: UnsafeBufferPointer<WideNode>
    let out: UnsafeMutablePointer<SIMD8<Float>>
    var count = 0
    var depth = 0

    /// Non-empty lanes of 4-wide node `n` (a bit each).
    func used(_ n: Int) -> Int {
      let node = wide[n]
      return LaneMath.atMost(node.lowerX, node.upperX)
    }

    func halfArea(_ n: Int, _ lane: Int) -> Float {
      let node = wide[n]
      let e = SIMD3(
        node.upperX[lane] - node.lowerX[lane], node.upperY[lane] - node.lowerY[lane],
        node.upperZ[lane] - node.lowerZ[lane])
      return e.x * e.y + e.y * e.z + e.z * e.x
    }

    /// Writes the 8-wide node for 4-wide node `n`, then those of its inner children; returns
    /// its index.
    @discardableResult
    mutating func collapse(_ n: Int, level: Int) -> Int32 {
      depth = max(depth, level)
      // The node's children as (4-wide node, lane) pairs.
      var nodes = SIMD8<Int32>(repeating: 0), lanes = SIMD8<Int32>(repeating: 0)
      var children = 0
      for lane in 0..<4 where used(n) & (1 << lane) != 0 {
        (nodes[children], lanes[children]) = (Int32(n), Int32(lane))
        children += 1
      }
      while true {
        var chosen = -1, chosenArea: Float = 0, chosenUsed = 0
        for i in 0..<children {
          let child = wide[Int(nodes[i])].child[Int(lanes[i])]
          guard child >= 0 else { continue }
          let grandchildren = used(Int(child))
          guard children - 1 + grandchildren.nonzeroBitCount <= 8 else { continue }
          let area = halfArea(Int(nodes[i]), Int(lanes[i]))
          if chosen < 0 || area > chosenArea { (chosen, chosenArea, chosenUsed) = (i, area, grandchildren) }
        }
        if chosen < 0 { break }
        // The chosen child's children take its place and the lanes after the last.
        let opened = Int32(wide[Int(nodes[chosen])].child[Int(lanes[chosen])])
        var first = true
        for lane in 0..<4 where chosenUsed & (1 << lane) != 0 {
          let slot = first ? chosen : children
          if !first { children += 1 }
          (nodes[slot], lanes[slot]) = (opened, Int32(lane))
          first = false
        }
      }
      let index = count
      count += 1
      let base = out + index * vectorsPerNode
      var box = (
        SIMD8<Float>(repeating: .infinity), SIMD8<Float>(repeating: -.infinity),
        SIMD8<Float>(repeating: .infinity),
        SIMD8<Float>(repeating: -.infinity), SIMD8<Float>(repeating: .infinity),
        SIMD8<Float>(repeating: -.infinity)
      )
      var references = SIMD8<Int32>(repeating: 0)
      for i in 0..<children {
        let node = wide[Int(nodes[i])], lane = Int(lanes[i])
        box.0[i] = node.lowerX[lane]
        box.1[i] = node.upperX[lane]
        box.2[i] = node.lowerY[lane]
        box.3[i] = node.upperY[lane]
        box.4[i] = node.lowerZ[lane]
        box.5[i] = node.upperZ[lane]
      }
      (base[0], base[1], base[2], base[3], base[4], base[5]) = box
      base[7] = .zero
      for i in 0..<children {
        let child = wide[Int(nodes[i])].child[Int(lanes[i])]
        references[i] = child < 0 ? child : collapse(Int(child), level: level + 1)
      }
      base[childVector] = unsafeBitCast(references, to: SIMD8<Float>.self)
      return Int32(index)
    }
  }
}
