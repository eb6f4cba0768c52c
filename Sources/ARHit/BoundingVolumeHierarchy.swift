import ARAssets
import ARMath

/// The closest (or any) hit of a ray with a triangle mesh.
public struct MeshHit: Hashable, Sendable {
  /// Ray parameter of the hit (metres when the direction is unit length).
  public var t: Double
  /// Index of the triangle in the mesh (`mesh.triangle(i)`).
  public var triangle: Int
  /// Barycentric coordinates of the triangle's second and third vertex at the hit.
  public var u: Double
  public var v: Double
}

/// A bounding volume hierarchy over a triangle mesh, for closest-hit and any-hit ray queries in
/// `Double`, watertight (``WatertightRay``) and conservative in its box tests, so no ray that
/// hits the mesh is lost in traversal.
///
/// Built top-down with the surface area heuristic over 16 centroid bins per axis (binned SAH,
/// Wald 2007); leaves hold up to 4 triangles. Each node stores both children's boxes, laid out
/// as (left, right) lanes, so one node visit tests both children with 2-wide SIMD. Immutable
/// once built; queries from many threads at once are safe.
public final class BoundingVolumeHierarchy: Sendable {
  /// A node: the boxes of its two children as (left, right) lanes and where they are. A child
  /// index ≥ 0 is an inner node; a leaf is `~first` with its triangle count in `leftCount` or
  /// `rightCount`. Boxes are `Float` rounded outwards (so they still contain their triangles)
  /// and widened back to `Double` exactly in the test: a node is 64 bytes, one cache line,
  /// which is what incoherent rays wait for.
  @usableFromInline
  struct Node: Sendable {
    @usableFromInline var minX = SIMD2<Float>(repeating: .infinity), minY = SIMD2<Float>(repeating: .infinity)
    @usableFromInline var minZ = SIMD2<Float>(repeating: .infinity)
    @usableFromInline var maxX = SIMD2<Float>(repeating: -.infinity),
      maxY = SIMD2<Float>(repeating: -.infinity)
    @usableFromInline var maxZ = SIMD2<Float>(repeating: -.infinity)
    @usableFromInline var left: Int32 = 0, right: Int32 = 0
    @usableFromInline var leftCount: Int32 = 0, rightCount: Int32 = 0
  }

  @usableFromInline let nodes: [Node]
  /// Triangle vertices in leaf order, packed as nine coordinates a triangle (a, b, c): one
  /// triangle spans 72 bytes, two cache lines at most, where three separate vertex arrays made
  /// an incoherent ray miss the cache three times per triangle.
  @usableFromInline let packedVertices: [Double]
  /// Each leaf triangle's index in the mesh.
  @usableFromInline let originalIndex: [Int32]
  /// Bounds of the whole mesh.
  public let bounds: AxisAlignedBox<Double>
  /// Number of triangles.
  public var triangleCount: Int { originalIndex.count }
  /// Number of nodes (for statistics and tests).
  public var nodeCount: Int { nodes.count }

  /// Builds a hierarchy over `mesh`'s triangles (positions widened to `Double`).
  /// - Throws: ``HitError/invalidMesh(_:)`` for a mesh without triangles or with non-finite
  ///   positions.
  public convenience init(mesh: Mesh, quality: BVHQuality = .high) throws(HitError) {
    let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
    try self.init(positions: positions, indices: mesh.indices.map { Int($0) }, quality: quality)
  }

  /// Builds a hierarchy over triangles given as vertex positions and three indices each.
  /// `quality` trades build time for query speed (``BVHQuality``).
  public init(positions: [SIMD3<Double>], indices: [Int], quality: BVHQuality = .high) throws(HitError) {
    guard !indices.isEmpty, indices.count % 3 == 0 else {
      throw .invalidMesh("needs at least one triangle (got \(indices.count) indices)")
    }
    guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
      throw .invalidMesh("a vertex position is not finite")
    }
    guard indices.allSatisfy({ $0 >= 0 && $0 < positions.count }) else {
      throw .invalidMesh("a triangle refers to a vertex that does not exist")
    }
    var builder = BVHBuilder(positions: positions, indices: indices)
    builder.build(quality: quality)
    nodes = builder.nodes
    packedVertices = [Double](unsafeUninitializedCapacity: 9 * builder.order.count) { out, initialized in
      for (k, t) in builder.order.enumerated() {
        for corner in 0..<3 {
          let p = positions[indices[3 * Int(t) + corner]]
          out[9 * k + 3 * corner] = p.x
          out[9 * k + 3 * corner + 1] = p.y
          out[9 * k + 3 * corner + 2] = p.z
        }
      }
      initialized = 9 * builder.order.count
    }
    originalIndex = builder.order
    bounds = builder.rootBounds
  }
}

/// How a ``BoundingVolumeHierarchy`` is built.
public enum BVHQuality: Sendable {
  /// Binned surface-area heuristic: the fastest queries; for meshes queried by many rays.
  case high
  /// Morton order (LBVH, Lauterbach et al. 2009): several times faster to build, queries some
  /// 10–40% slower; for a few rays per build, as taps on a mesh that just changed.
  case fast
}
