import ARMath
import Foundation

/// An 8-wide tree over the 4-wide tree's leaves, for the AVX2 ray kernel
/// (`arscene_closest_hits_avx2` in CVectorKernels): one visit tests eight `Float` boxes in one
/// set of AVX2 instructions.
///
/// A node is eight `SIMD8<Float>` (256 bytes): the lower and upper bounds of its children on x,
/// y and z (six vectors, one lane a child), then the child references as `Int32` bit patterns
/// (an inner node's index, or a leaf as `~packet`, the ``LeafTriangles`` packet of the 4-wide
/// tree's leaf), then padding. Unused lanes hold an empty box (lower +∞, upper −∞). The boxes
/// are unions of the 4-wide tree's leaf boxes, so they stay conservative.
///
/// Built top-down over the leaves (``EightWideBuilder``), not collapsed from the 4-wide nodes:
/// a 4-wide node whose children all have four children can only become seven lanes, and one
/// over four leaves only four, so collapsing gave nodes of five children on average and a ray
/// about six visits; building fills the eight lanes. It runs when the first batch query asks
/// for the tree (9 ms for 100k triangles on one core, 6–7 ms on two: the leaves are a quarter
/// as many, and the root's subtrees are built side by side).
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

  /// The tree over the leaves of `wide`, a 4-wide tree whose leaves are already packed (their
  /// references are ``LeafTriangles`` packets), built on up to `threads` threads (the same
  /// bytes on any number).
  init(overLeavesOf wide: [WideNode], threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    var builder = EightWideBuilder()
    let vectors = builder.build(over: EightWideBuilder.leaves(of: wide), threads: threads)
    let storage = AlignedNodes(vectors: vectors.count)
    vectors.withUnsafeBufferPointer { storage.pointer.initialize(from: $0.baseAddress!, count: $0.count) }
    self.storage = storage
    stackCapacity = 7 * builder.depth + 1
  }
}
