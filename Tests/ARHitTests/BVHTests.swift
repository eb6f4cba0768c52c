import ARHit
import ARMath
import ARMesh
import ARTestSupport
import Dispatch
import RealModule
import Testing

/// The BVH against brute force, and watertightness on a closed mesh.
@Suite struct BVHTests {
  /// A soup of random triangles in a 10 m cube, of mixed sizes.
  static func soup(_ count: Int, rng: inout SplitMix64) -> ([SIMD3<Double>], [Int]) {
    var positions: [SIMD3<Double>] = []
    for _ in 0..<count {
      let base: SIMD3<Double> = rng.vector3(-5...5)
      let size: Double = rng.scalar(0.01...2)
      for _ in 0..<3 { positions.append(base + size * (rng.vector3(-1...1) as SIMD3<Double>)) }
    }
    return (positions, Array(0..<(3 * count)))
  }

  static func randomRay(_ rng: inout SplitMix64) throws -> HitRay {
    let origin: SIMD3<Double> = rng.vector3(-8...8)
    let target: SIMD3<Double> = rng.vector3(-5...5)
    return try HitRay(origin: origin, direction: target - origin)
  }

  @Test("closest hits equal brute force", arguments: [BVHQuality.high, .fast])
  func closestHitsEqualBruteForce(quality: BVHQuality) throws {
    var rng = SplitMix64(seed: 17)
    let (positions, indices) = Self.soup(600, rng: &rng)
    try Self.expectBruteForceHits(positions, indices, quality: quality, rays: 1200, rng: &rng)
  }

  /// 20,000 triangles: the SAH build's top nodes, its subtrees built in parallel and their
  /// join, which a small mesh never reaches.
  @Test("a mesh built in parallel parts finds the brute-force hits", arguments: [BVHQuality.high, .fast])
  func parallelBuildEqualsBruteForce(quality: BVHQuality) throws {
    var rng = SplitMix64(seed: 29)
    let (positions, indices) = Self.soup(20_000, rng: &rng)
    try Self.expectBruteForceHits(positions, indices, quality: quality, rays: 150, rng: &rng)
  }

  static func expectBruteForceHits(
    _ positions: [SIMD3<Double>], _ indices: [Int], quality: BVHQuality, rays: Int, rng: inout SplitMix64
  ) throws {
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
    for _ in 0..<rays {
      let ray = try Self.randomRay(&rng)
      let prepared = WatertightRay(ray)
      var brute: (t: Double, triangle: Int)? = nil
      for t in 0..<(indices.count / 3) {
        if let h = prepared.intersect(positions[3 * t], positions[3 * t + 1], positions[3 * t + 2]),
          brute == nil || h.t < brute!.t
        {
          brute = (h.t, t)
        }
      }
      let hit = bvh.closestHit(ray)
      #expect(
        hit?.t == brute?.t, "BVH \(String(describing: hit)) vs brute force \(String(describing: brute))")
      if let hit {
        // The hit lies on its triangle's plane, to 1e-9 relative.
        let a = positions[3 * hit.triangle], b = positions[3 * hit.triangle + 1],
          c = positions[3 * hit.triangle + 2]
        let p = ray.point(at: hit.t)
        let n = (b - a).cross(c - a).normalized()
        let scale = max(p.length, 1)
        #expect(abs((p - a).dot(n)) <= 1e-9 * scale)
        let q = (1 - hit.u - hit.v) * a + hit.u * b + hit.v * c
        #expect((q - p).length <= 1e-9 * scale)
        // Any-hit agrees that something is there.
        #expect(bvh.anyHit(ray) != nil)
      } else {
        #expect(bvh.anyHit(ray) == nil)
      }
    }
  }

  /// Many triangles with one centroid (identical Morton codes, no spatial split possible) among a
  /// few others: both builds still find every closest hit, and stay shallow enough to traverse.
  @Test("identical centroids split by count", arguments: [BVHQuality.high, .fast])
  func identicalCentroidsSplitByCount(quality: BVHQuality) throws {
    var rng = SplitMix64(seed: 19)
    var positions: [SIMD3<Double>] = []
    for _ in 0..<3000 {  // triangles (r, -r, c) with c inside r's box: all boxes centred on 0
      let r: SIMD3<Double> = rng.vector3(-1...1)
      positions += [r, -r, r * (rng.vector3(-1...1) as SIMD3<Double>)]
    }
    let (others, _) = Self.soup(50, rng: &rng)
    positions += others
    let indices = Array(0..<positions.count)
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
    for _ in 0..<300 {
      let ray = try Self.randomRay(&rng)
      let expected = WideBoxTestRobustness.bruteForce(ray, positions, indices, tMin: 0, tMax: .infinity)
      #expect(bvh.closestHit(ray)?.t == expected)
    }
  }

  @Test("batch queries match single ones") func batchQueriesMatchSingleOnes() throws {
    var rng = SplitMix64(seed: 18)
    let (positions, indices) = Self.soup(2000, rng: &rng)
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices)
    let rays = try (0..<20_000).map { _ in try Self.randomRay(&rng) }
    let batch = bvh.closestHits(rays, threads: 2)
    #expect(batch == rays.map { bvh.closestHit($0) })
  }

  /// A million rays aimed exactly at the shared edges and vertices of a closed sphere mesh, from
  /// random places in front of the aimed point (within 60° of the surface normal, so that the
  /// ray enters there rather than grazing a silhouette, where a miss would be right): every one
  /// must hit. A gap between neighbouring triangles would let some through. Both the single
  /// query and the batch one (the AVX2 kernel, where it runs) are asked.
  @Test("no ray through an edge or vertex escapes") func noRayThroughAnEdgeOrVertexEscapes() throws {
    let mesh = Mesh.sphere(radius: 1, subdivisions: 3)  // 1,280 triangles, closed
    let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
    let indices = mesh.indices.map { Int($0) }
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices)
    var edgeList: [(Int, Int)] = []
    for t in 0..<(indices.count / 3) {
      for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let a = indices[3 * t + i], b = indices[3 * t + j]
        if a < b { edgeList.append((a, b)) }
      }
    }
    let edges = edgeList
    let total = 1_000_000
    let misses = Counter()
    let chunks = 20
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      var rng = SplitMix64(seed: UInt64(100 + chunk))
      var local = 0
      var rays: [HitRay] = []
      for k in 0..<(total / chunks) {
        let aim: SIMD3<Double>
        if k % 4 == 0 {
          aim = positions[Int.random(in: 0..<positions.count, using: &rng)]  // a vertex
        } else {
          let (i, j) = edges[Int.random(in: 0..<edges.count, using: &rng)]
          let s = Double.random(in: 0...1, using: &rng)
          aim = positions[i] + s * (positions[j] - positions[i])  // a point on an edge
        }
        // A direction within 60° of the outward normal (the sphere's normal at the aim point).
        let normal = aim.normalized()
        var offset: SIMD3<Double> = rng.unitVector3()
        offset -= offset.dot(normal) * normal
        let angle = Double.random(in: 0...(Double.pi / 3), using: &rng)
        let towards = Double.cos(angle) * normal + Double.sin(angle) * offset.normalized()
        let origin = aim + Double.random(in: 0.5...10, using: &rng) * towards
        guard let ray = try? HitRay(origin: origin, direction: aim - origin) else { continue }
        if bvh.closestHit(ray) == nil { local += 1 }
        rays.append(ray)
      }
      local += bvh.closestHits(rays, threads: 1).count { $0 == nil }
      misses.add(local)
    }
    #expect(misses.value == 0, "\(misses.value) of \(total) rays escaped")
  }
}

/// A thread-safe tally for concurrent test loops.
final class Counter: @unchecked Sendable {
  private var count = 0
  private let lock = DispatchSemaphore(value: 1)
  func add(_ n: Int) {
    lock.wait()
    count += n
    lock.signal()
  }
  var value: Int { count }
}

/// The `Float` box test of the 4-wide tree against brute force on the rays most likely to be
/// culled by rounding: axis-parallel ones, rays along the faces of an axis-aligned grid (boxes
/// of zero thickness), directions of extreme scale, origins that are not `Float`s, and limited
/// `tMin`/`tMax` ranges.
@Suite struct WideBoxTestRobustness {
  /// A flat grid of unit quads in the plane y = `height`, with a bump row so boxes vary.
  static func grid(height: Double) -> ([SIMD3<Double>], [Int]) {
    var positions: [SIMD3<Double>] = [], indices: [Int] = []
    let n = 12
    for j in 0...n {
      for i in 0...n {
        positions.append(SIMD3(Double(i) * 0.1, height + (j == 6 ? 0.05 : 0), Double(j) * 0.1))
      }
    }
    for j in 0..<n {
      for i in 0..<n {
        let a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1
        indices += [a, c, b, b, c, d]
      }
    }
    return (positions, indices)
  }

  static func bruteForce(
    _ ray: HitRay, _ positions: [SIMD3<Double>], _ indices: [Int], tMin: Double, tMax: Double
  )
    -> Double?
  {
    let prepared = WatertightRay(ray)
    var best: Double? = nil
    for t in 0..<(indices.count / 3) {
      if let h = prepared.intersect(
        positions[indices[3 * t]], positions[indices[3 * t + 1]], positions[indices[3 * t + 2]], tMin: tMin,
        tMax: tMax), best == nil || h.t < best!
      {
        best = h.t
      }
    }
    return best
  }

  @Test(
    "extreme rays agree with brute force", arguments: [0.0, 0.1, 1e-40, 12_345.678_9],
    [BVHQuality.high, .fast])
  func extremeRaysAgreeWithBruteForce(height: Double, quality: BVHQuality) throws {
    let (positions, indices) = Self.grid(height: height)
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
    var rng = SplitMix64(seed: 77)
    var checked = 0
    var unlimited: [(ray: HitRay, expected: Double?)] = []
    for _ in 0..<3000 {
      let x: Double = rng.scalar(-0.1...1.3), z: Double = rng.scalar(-0.1...1.3)
      let above: Double = rng.scalar(1e-9...2)
      var direction: SIMD3<Double> = [rng.scalar(-1...1), -1, rng.scalar(-1...1)]
      switch checked % 5 {
      case 0: direction = [0, -1, 0]  // straight down, axis-parallel
      case 1: direction *= 1e200  // huge components
      case 2: direction *= 1e-200  // tiny components
      case 3: direction.x = 0  // parallel to the x slabs
      default: break
      }
      let ray = try HitRay(origin: [x, height + above, z], direction: direction)
      let tMax: Double = checked % 7 == 0 ? rng.scalar(0...3) * above / abs(direction.y) : .infinity
      let expected = Self.bruteForce(ray, positions, indices, tMin: 0, tMax: tMax)
      #expect(bvh.closestHit(ray, tMax: tMax)?.t == expected, "ray \(ray), tMax \(tMax)")
      #expect((bvh.anyHit(ray, tMax: tMax) != nil) == (expected != nil))
      if tMax == .infinity { unlimited.append((ray, expected)) }
      checked += 1
    }
    // Rays lying in the grid's plane, along its rows: every triangle is edge-on (no hit), and
    // the zero-thickness boxes must not trip the test into a false one either.
    for k in 0...12 {
      let ray = try HitRay(origin: [-1, height, Double(k) * 0.1], direction: [1, 0, 0])
      #expect(bvh.closestHit(ray)?.t == Self.bruteForce(ray, positions, indices, tMin: 0, tMax: .infinity))
      unlimited.append((ray, Self.bruteForce(ray, positions, indices, tMin: 0, tMax: .infinity)))
    }
    // The same rays as one batch: the AVX2 kernel, where it runs, with its own box test.
    let batch = bvh.closestHits(unlimited.map(\.ray), threads: 2)
    for (hit, (ray, expected)) in zip(batch, unlimited) {
      #expect(hit?.t == expected, "batch: ray \(ray)")
    }
  }
}
