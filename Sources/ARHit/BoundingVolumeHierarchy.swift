import ARMath
import ARMesh

/// A bounding volume hierarchy over a triangle mesh, for closest-hit and any-hit ray queries in
/// `Double`, watertight (``WatertightRay``) and conservative in its box tests, so no ray that
/// hits the mesh is lost in traversal.
///
/// Built top-down with the surface area heuristic over up to 16 centroid bins per axis (binned
/// SAH, Wald 2007), on all cores, straight into 4-wide nodes; or from the triangles sorted in
/// Morton order (``BVHQuality``). Leaves hold up to 4 triangles. Either tree is the same bytes
/// on any number of cores. One visit tests a wide node's four `Float` boxes at once,
/// conservatively; triangles are tested in `Double`. Batch queries on a CPU with AVX2 walk an
/// 8-wide tree over the same leaves, in C (`CVectorKernels`), with the same hits.
/// Immutable once built (the 8-wide copy is made once, on first use); queries from many
/// threads at once are safe.
public final class BoundingVolumeHierarchy: Sendable {
  /// The 4-wide tree, root first.
  @usableFromInline let nodes: [WideNode]
  /// The same tree with eight children a node, for the AVX2 batch kernel: made by the first
  /// batch query on a CPU with AVX2 (a millisecond or two for 100k triangles), so that builds
  /// for single rays and taps neither wait for it nor hold its memory.
  let eightWide = LazyEightWideTree()
  /// The triangles in leaf order with their mesh indices.
  @usableFromInline let leafTriangles: LeafTriangles
  /// Bounds of the whole mesh.
  public let bounds: AxisAlignedBox<Double>
  /// Number of triangles.
  public let triangleCount: Int
  /// Entries the traversal stack needs: three a level of the 4-wide tree, and one.
  @usableFromInline let stackCapacity: Int
  /// Number of (4-wide) nodes, for statistics and tests.
  public var nodeCount: Int { nodes.count }

  /// Builds a hierarchy over `mesh`'s triangles in model space (`origin + positions`, in `Double`).
  /// - Throws: ``HitError/invalidMesh(_:)`` for a mesh without triangles or with non-finite
  ///   positions.
  public convenience init(mesh: Mesh, quality: BVHQuality = .high) throws(HitError) {
    let positions = mesh.positions.indices.map { mesh.modelPosition($0) }
    try self.init(positions: positions, indices: mesh.indices.map { Int($0) }, quality: quality)
  }

  /// Builds a hierarchy over triangles given as vertex positions and three indices each.
  /// `quality` trades build time for query speed (``BVHQuality``).
  public init(positions: [SIMD3<Double>], indices: [Int], quality: BVHQuality = .high) throws(HitError) {
    guard !indices.isEmpty, indices.count % 3 == 0 else {
      throw .invalidMesh("needs at least one triangle (got \(indices.count) indices)")
    }
    guard positions.allFinite else {
      throw .invalidMesh("a vertex position is not finite")
    }
    guard indices.allSatisfy({ $0 >= 0 && $0 < positions.count }) else {
      throw .invalidMesh("a triangle refers to a vertex that does not exist")
    }
    triangleCount = indices.count / 3
    assert(WideNode.offsetsMatchLayout(), "WideNode's offset literals do not match its layout")
    assert(WideBoxRay.widenMatchesFormula(), "WideBoxRay.widen is not 1 + 2γ₄")
    let depth: Int
    let order: [Int32]
    var wide: [WideNode]
    switch quality {
    case .high:
      (wide, depth, order, bounds) = BVHBuilder.build(positions: positions, indices: indices)
    case .fast:
      let builder = MortonBuilder(positions: positions, indices: indices)
      (wide, depth, bounds) = builder.wideNodes(positions: positions, indices: indices)
      order = builder.order
    }
    leafTriangles = LeafTriangles(packing: &wide, order: order, positions: positions, indices: indices)
    nodes = wide
    stackCapacity = 3 * depth + 1
  }
}

extension BoundingVolumeHierarchy {
  /// The 8-wide tree for the AVX2 kernel, made on first use; nil on CPUs without AVX2.
  var eightWideTree: EightWideTree? {
    guard AVX2Rays.available else { return nil }
    return eightWide.tree { EightWideTree(overLeavesOf: nodes) }
  }
}
