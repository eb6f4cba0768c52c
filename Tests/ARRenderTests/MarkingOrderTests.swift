import ARMath
import ARTestSupport
import Testing

@testable import ARRender

/// The order of a tile's opaque triangles for marking: near facing first, each in draw order.
@Suite("Marking order")
struct MarkingOrderTests {
  /// A triangle around the image centre at NDC depth `z`, wound counter-clockwise on screen
  /// (front-facing) or clockwise.
  func triangle(z: Float, front: Bool) -> SetupTriangle {
    let a = SIMD4<Float>(-0.5, -0.5, z, 1), b = SIMD4<Float>(0.5, -0.5, z, 1), c = SIMD4<Float>(0, 0.5, z, 1)
    return SetupTriangle(
      a, front ? b : c, front ? c : b, indices: [0, 1, 2], width: 16, height: 16, cullBackFaces: false,
      draw: 0, material: 0, batch: 0)!
  }

  /// The ranks `order` marks first and second, after arranging `triangles` binned to tile 0 of
  /// views of `split` triangles each (all in one view when nil), deferred up to `deferredCount`.
  func arranged(
    _ triangles: [SetupTriangle], split: [Int], deferredCount: Int? = nil
  ) -> (first: [Int32], second: [Int32], stop: (view: Int, position: Int)) {
    var order = MarkingOrder()
    defer { order.deallocate() }
    return triangles.withUnsafeBufferPointer { all in
      // Each view's bins: tile 0 holds its triangles, tile 1 none.
      var starts: [[Int32]] = [], bins: [[Int32]] = []
      var next = 0
      for count in split {
        starts.append([0, Int32(count), Int32(count)])
        bins.append((next..<(next + count)).map { Int32($0) })
        next += count
      }
      let views = (0..<split.count).map { v in
        BinnedTriangles(
          triangles: all.baseAddress!, binStart: starts[v].withUnsafeBufferPointer { $0.baseAddress! },
          binned: bins[v].withUnsafeBufferPointer { $0.baseAddress! })
      }
      let stop = withExtendedLifetime((starts, bins)) {
        views.withUnsafeBufferPointer { views in
          order.arrange(views, tile: 0) { t in
            deferredCount.map { t - all.baseAddress! < $0 } ?? true
          }
        }
      }
      return (order.first.map { order.ranks[$0] }, order.second.map { order.ranks[$0] }, stop)
    }
  }

  @Test("the facing nearer the camera goes first, each facing in draw order")
  func nearFacingFirst() {
    // Far faces (depth 0.5) and near ones (−0.5) alternating, the near ones front-facing…
    let frontNear = (0..<5).map { triangle(z: $0 % 2 == 0 ? 0.5 : -0.5, front: $0 % 2 == 1) }
    var result = arranged(frontNear, split: [5])
    #expect(result.first == [1, 3] && result.second == [0, 2, 4])
    #expect(result.stop.view == 1)
    // …or back-facing (a mesh wound the other way).
    let backNear = (0..<5).map { triangle(z: $0 % 2 == 0 ? 0.5 : -0.5, front: $0 % 2 == 0) }
    result = arranged(backNear, split: [5])
    #expect(result.first == [1, 3] && result.second == [0, 2, 4])
    // Across views (setup batches), ranks count on in draw order.
    result = arranged(frontNear, split: [2, 3])
    #expect(result.first == [1, 3] && result.second == [0, 2, 4])
    // One facing alone needs no second part.
    result = arranged((0..<3).map { triangle(z: Float($0) / 4, front: true) }, split: [3])
    #expect(result.first == [0, 1, 2] && result.second.isEmpty)
  }

  @Test("arranging stops at the first triangle not marked with deferred shading")
  func stopsAtImmediate() {
    let triangles = (0..<6).map { triangle(z: $0 % 2 == 0 ? 0.5 : -0.5, front: $0 % 2 == 1) }
    let result = arranged(triangles, split: [2, 4], deferredCount: 3)
    #expect(result.first == [1] && result.second == [0, 2])
    #expect(result.stop.view == 1 && result.stop.position == 1)
  }
}

/// The bound the hidden test compares a tile's depths with.
@Suite("Hidden-test depth bound")
struct NearestDepthBoundTests {
  @Test("no covered sample of a triangle, in any tile, has a depth below its nearest bound")
  func boundHolds() {
    var rng = SplitMix64(seed: 4_117)
    let (width, height, tileSize) = (512, 384, 64)
    var samplesChecked = 0, triangles = 0, closeBounds = 0
    for round in 0..<2000 {
      // Clip positions with w in (0.2, 5]: small and large triangles, slivers (two vertices
      // close together) and steep depth slopes (depths far apart), inside the frustum; every
      // other round, vertices on sample centres (w = 1), where a covered sample's depth is a
      // vertex's exactly, and only rounding can take it below.
      let sliver = round % 3 == 0
      let (originX, originY) = (
        Int.random(in: 0..<width - 96, using: &rng), Int.random(in: 0..<height - 96, using: &rng)
      )
      var corners: [SIMD4<Float>] = (0..<3).map { _ in
        if round % 4 < 2 {
          let x = Float(originX + Int.random(in: 0..<96, using: &rng)) + 0.5
          let y = Float(originY + Int.random(in: 0..<96, using: &rng)) + 0.5
          return SIMD4(2 * x / Float(width) - 1, 1 - 2 * y / Float(height), rng.scalar(-1...1), 1)
        }
        let w: Float = rng.scalar(0.2...5)
        let spread: Float = round % 2 == 0 ? 0.05 : 0.4
        return SIMD4(
          rng.scalar(-spread...spread) * w, rng.scalar(-spread...spread) * w, rng.scalar(-1...1) * w, w)
      }
      if sliver { corners[2] = corners[1] + SIMD4(rng.vector3(-0.002...0.002), 0) }
      guard
        let t = SetupTriangle(
          corners[0], corners[1], corners[2], indices: [0, 1, 2], width: width, height: height,
          cullBackFaces: false, draw: 0, material: 0, batch: 0)
      else { continue }
      let nearest = t.nearest
      triangles += 1
      if !sliver && LaneMath.least(t.z) - nearest < 1e-4 { closeBounds += 1 }
      let (firstTileX, lastTileX) = (Int(t.minX) / tileSize, Int(t.maxX) / tileSize)
      let (firstTileY, lastTileY) = (Int(t.minY) / tileSize, Int(t.maxY) / tileSize)
      for ty in firstTileY...lastTileY {
        for tx in firstTileX...lastTileX {
          let tileX = (tx * tileSize)...Swift.min((tx + 1) * tileSize, width) - 1
          let tileY = (ty * tileSize)...Swift.min((ty + 1) * tileSize, height) - 1
          guard let box = TileTriangle(t, tileX: tileX, tileY: tileY) else { continue }
          for py in box.minY...box.maxY {
            let rowEdges = box.originEdges &+ box.stepY &* Int64(py - box.minY) &+ box.bias
            for column in 0..<box.width {
              let e = rowEdges &+ box.stepX &* Int64(column)
              guard e.x >= 0, e.y >= 0, e.z >= 0 else { continue }
              // The depth as marking computes it.
              let z = box.rowDepth(py) + box.dzdx * Float(column)
              #expect(z >= nearest, "round \(round): depth \(z) below the bound \(nearest)")
              samplesChecked += 1
            }
          }
        }
      }
    }
    #expect(samplesChecked > 100_000)
    // Not so loose that the test never rejects: for most triangles other than slivers, the bound
    // is within 10⁻⁴ of the nearest vertex's depth.
    #expect(closeBounds > triangles / 2)
  }
}
