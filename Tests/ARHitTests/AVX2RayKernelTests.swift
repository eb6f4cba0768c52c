import ARMath
import ARMesh
import ARTestSupport
import Testing

@testable import ARHit

/// The AVX2 batch kernel (8-wide tree, C) against the portable traversal (4-wide tree, Swift):
/// the same hits, bit for bit: parameter, triangle and barycentrics. Skipped on a CPU without
/// AVX2, where both calls would run the portable traversal.
@Suite("AVX2 ray kernel", .enabled(if: AVX2Rays.available, "this CPU has no AVX2"))
struct AVX2RayKernelTests {
  static func expectSameHits(_ bvh: BoundingVolumeHierarchy, _ rays: [HitRay]) {
    let kernel = bvh.closestHits(rays, threads: 2, portable: false)
    let portable = bvh.closestHits(rays, threads: 2, portable: true)
    var differing = 0
    for i in rays.indices where kernel[i] != portable[i] {
      if differing < 3 {
        Issue.record(
          "ray \(i): kernel \(String(describing: kernel[i])), portable \(String(describing: portable[i]))")
      }
      differing += 1
    }
    #expect(differing == 0)
    #expect(kernel.contains { $0 != nil } && kernel.contains { $0 == nil })
  }

  /// Random triangles in `Double` (packets of `Double`s), both builds.
  @Test("random triangles: the same hits", arguments: [BVHQuality.high, .fast])
  func randomTriangles(quality: BVHQuality) throws {
    var rng = SplitMix64(seed: 41)
    let (positions, indices) = BVHTests.soup(3000, rng: &rng)
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
    let rays = try (0..<30_000).map { _ in try BVHTests.randomRay(&rng) }
    Self.expectSameHits(bvh, rays)
  }

  /// Rays aimed exactly at the vertices of a closed sphere whose coordinates are `Float`s
  /// (packets of `Float`s). Where several triangles meet the ray at the same parameter, the
  /// lowest triangle index must win on both paths, though they test the triangles in different
  /// orders; the test checks that such ties occur.
  @Test("rays through shared vertices: ties go the same way", arguments: [BVHQuality.high, .fast])
  func sharedVertices(quality: BVHQuality) throws {
    let mesh = Mesh.sphere(radius: 1, subdivisions: 3)
    let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
    let indices = mesh.indices.map { Int($0) }
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
    var rng = SplitMix64(seed: 43)
    var rays: [HitRay] = []
    for _ in 0..<20_000 {
      let aim = positions[Int(rng.next() % UInt64(positions.count))]
      let origin = aim * 2.5 + (rng.vector3(-0.5...0.5) as SIMD3<Double>)
      rays.append(try HitRay(origin: origin, direction: aim - origin))
    }
    // Misses too: rays passing beside the sphere.
    for _ in 0..<2000 {
      rays.append(try HitRay(origin: [3, rng.scalar(-0.5...0.5), 0], direction: [0, 0, 1]))
    }
    Self.expectSameHits(bvh, rays)
    // Ties: rays whose nearest parameter is shared by two triangles or more.
    var ties = 0
    for ray in rays.prefix(2000) {
      let prepared = WatertightRay(ray)
      var hits: [Double] = []
      for t in 0..<(indices.count / 3) {
        if let h = prepared.intersect(
          positions[indices[3 * t]], positions[indices[3 * t + 1]], positions[indices[3 * t + 2]])
        {
          hits.append(h.t)
        }
      }
      if let nearest = hits.min(), hits.filter({ $0 == nearest }).count > 1 { ties += 1 }
    }
    #expect(ties > 100, "only \(ties) rays of 2,000 have tied hits")
  }
}
