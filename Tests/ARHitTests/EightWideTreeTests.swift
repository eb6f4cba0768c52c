import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

@testable import ARHit

/// The 8-wide tree the AVX2 kernel walks, built over the 4-wide tree's leaves: every leaf once,
/// boxes that hold what is below them, and nodes that use their lanes. (That its hits equal the
/// portable traversal's is `AVX2RayKernelTests`.)
@Suite("8-wide tree")
struct EightWideTreeTests {
  /// The tree's nodes as (boxes, references) per used lane, and the leaf references reached.
  static func walk(_ tree: EightWideTree) -> (nodes: Int, lanes: Int, leaves: [Int32], depth: Int) {
    var (nodes, lanes, leaves, depth) = (0, 0, [Int32](), 0)
    var stack: [(node: Int, level: Int, lower: SIMD3<Float>, upper: SIMD3<Float>)] = [
      (0, 1, SIMD3(repeating: -.infinity), SIMD3(repeating: .infinity))
    ]
    while let (n, level, outerLower, outerUpper) = stack.popLast() {
      nodes += 1
      depth = max(depth, level)
      let base = tree.storage.pointer + n * EightWideTree.vectorsPerNode
      let references = unsafeBitCast(base[EightWideTree.childVector], to: SIMD8<Int32>.self)
      for lane in 0..<8 where base[0][lane] <= base[1][lane] {
        lanes += 1
        let lower = SIMD3(base[0][lane], base[2][lane], base[4][lane])
        let upper = SIMD3(base[1][lane], base[3][lane], base[5][lane])
        #expect(
          all(lower .>= outerLower) && all(upper .<= outerUpper),
          "node \(n) lane \(lane) leaves its parent's box")
        if references[lane] < 0 {
          leaves.append(references[lane])
        } else {
          stack.append((Int(references[lane]), level + 1, lower, upper))
        }
      }
    }
    return (nodes, lanes, leaves, depth)
  }

  /// The 4-wide tree's leaf references.
  static func wideLeaves(_ bvh: BoundingVolumeHierarchy) -> [Int32] {
    EightWideBuilder.leaves(of: bvh.nodes).map(\.reference)
  }

  @Test("every leaf once, inside every box above it; nodes six lanes full or more on average")
  func structure() throws {
    var rng = SplitMix64(seed: 58)
    let (positions, indices) = BVHTests.soup(20_000, rng: &rng)
    for quality in [BVHQuality.high, .fast] {
      let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: quality)
      let tree = EightWideTree(overLeavesOf: bvh.nodes)
      let (nodes, lanes, leaves, depth) = Self.walk(tree)
      #expect(leaves.sorted() == Self.wideLeaves(bvh).sorted())
      #expect(Double(lanes) / Double(nodes) >= 6, "\(quality): \(lanes) lanes in \(nodes) nodes")
      #expect(tree.stackCapacity == 7 * depth + 1)
    }
  }

  @Test("the same bytes built on 1, 2 and 3 threads (the root's subtrees side by side)")
  func threadCounts() throws {
    var rng = SplitMix64(seed: 60)
    let (positions, indices) = BVHTests.soup(30_000, rng: &rng)
    let bvh = try BoundingVolumeHierarchy(positions: positions, indices: indices)
    #expect(EightWideBuilder.leaves(of: bvh.nodes).count >= EightWideBuilder.parallelLeaves)
    let serial = EightWideTree(overLeavesOf: bvh.nodes, threads: 1)
    let vectors = Self.walk(serial).nodes * EightWideTree.vectorsPerNode
    for threads in [2, 3] {
      let parallel = EightWideTree(overLeavesOf: bvh.nodes, threads: threads)
      #expect(Self.walk(parallel).nodes * EightWideTree.vectorsPerNode == vectors)
      #expect(
        memcmp(serial.storage.pointer, parallel.storage.pointer, vectors * 32) == 0, "\(threads) threads")
      #expect(parallel.stackCapacity == serial.stackCapacity)
    }
  }

  @Test("boxes a subnormal thick and beyond Float's range: every leaf still placed once")
  func extremeExtents() throws {
    var rng = SplitMix64(seed: 59)
    for scale in [SIMD3<Double>(1, 1e-40, 1), SIMD3(1e38, 1e38, 1)] {
      let (positions, indices) = BVHTests.soup(2000, rng: &rng)
      let bvh = try BoundingVolumeHierarchy(positions: positions.map { $0 * scale }, indices: indices)
      #expect(
        Self.walk(EightWideTree(overLeavesOf: bvh.nodes)).leaves.sorted() == Self.wideLeaves(bvh).sorted())
    }
  }

  @Test("one triangle, and many at one spot (no centre plane splits them)")
  func degenerate() throws {
    let one = try BoundingVolumeHierarchy(
      positions: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices: [0, 1, 2])
    let single = Self.walk(EightWideTree(overLeavesOf: one.nodes))
    #expect(single.nodes == 1 && single.leaves.count == 1)
    let triangle: [SIMD3<Double>] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    let stacked = try BoundingVolumeHierarchy(
      positions: Array(repeating: triangle, count: 500).flatMap { $0 }, indices: Array(0..<1500))
    let tree = EightWideTree(overLeavesOf: stacked.nodes)
    let walked = Self.walk(tree)
    #expect(walked.leaves.sorted() == Self.wideLeaves(stacked).sorted())
    let ray = try HitRay(origin: [0.25, 0.25, 1], direction: [0, 0, -1])
    #expect(
      stacked.closestHits([ray], threads: 1, portable: false)
        == stacked.closestHits([ray], threads: 1, portable: true))
  }
}
