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
