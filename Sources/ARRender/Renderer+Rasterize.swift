import ARMath
import CMathShims
import Dispatch

extension Renderer {
  /// The side of a square tile, in samples (a power of two). Triangles are binned per tile;
  /// each tile is drawn by one thread, in triangle order, so the result never depends on the
  /// thread count.
  static let tileSize = 64

  /// Draws the frame's triangles with the fragment shader `shader`, a generic parameter so that
  /// each shader gets its own specialised inner loop (no per-pixel dispatch).
  static func rasterize<Shader: FragmentShader, Store: SampleStore>(
    _ geometry: GeometryStage, into target: RenderTarget, store: Store, shader: Shader, threads: Int
  ) {
    let grid = TileGrid(width: target.width, height: target.height, tileSize: tileSize)
    let (width, height) = (target.width, target.height)
    let vertices = geometry.frameVertices
    // Every batch's triangles and bins as plain pointers: the workers touch no reference count.
    let batches = (geometry.batches + [geometry.translucent]).filter { !$0.triangles.isEmpty }
    let views = batches.map { BinnedTriangles($0) }
    withExtendedLifetime(batches) {
      views.withUnsafeBufferPointer { views in
        let views = UnsafeSendableBuffer(views)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
          // Whole rows of tiles are dealt round-robin (a fixed split per worker): neighbours
          // across a vertical tile edge share cache lines of the buffers, so they are drawn by
          // the same worker, or every row of both tiles would bounce between the cores.
          for tile in stride(from: worker, to: grid.tilesY, by: threads).lazy.flatMap({ row in
            (row * grid.tilesX)..<((row + 1) * grid.tilesX)
          }) {
            let x0 = (tile % grid.tilesX) * tileSize, y0 = (tile / grid.tilesX) * tileSize
            let x1 = Swift.min(x0 + tileSize, width) - 1, y1 = Swift.min(y0 + tileSize, height) - 1
            target.clear(x0...x1, y0...y1, in: store)
            let view = TargetView(store: store, depth: target.depth, width: width)
            for batch in views.buffer {
              let bin = Int(batch.binStart[tile])..<Int(batch.binStart[tile + 1])
              for k in bin {
                // A bin's triangles (and their vertices) lie anywhere in memory: ask for the
                // triangle a few ahead, and for the vertices of the one after this.
                if k + 8 < bin.upperBound { arscene_prefetch(batch.triangles + Int(batch.binned[k + 8])) }
                if shader.readsVertices && k + 1 < bin.upperBound {
                  vertices.prefetch(batch.triangles[Int(batch.binned[k + 1])])
                }
                let t = batch.triangles[Int(batch.binned[k])]
                drawTriangle(
                  t, vertices: vertices, tileX: x0...x1, tileY: y0...y1, target: view, shader: shader)
              }
            }
          }
        }
      }
    }
  }

  /// Covers the sample centres of `t` inside the tile: per row, the span the three edge
  /// functions allow (found by division, exactly as testing every sample would, top-left rule
  /// included), then depth test, perspective-correct attributes and shading along the span.
  @inline(__always)
  static func drawTriangle<Shader: FragmentShader, Store: SampleStore>(
    _ t: SetupTriangle, vertices: FrameVertices, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>,
    target: TargetView<Store>, shader: Shader
  ) {
    let minX = Swift.max(Int(t.minX), tileX.lowerBound), maxX = Swift.min(Int(t.maxX), tileX.upperBound)
    let minY = Swift.max(Int(t.minY), tileY.lowerBound), maxY = Swift.min(Int(t.maxY), tileY.upperBound)
    guard minX <= maxX, minY <= maxY else { return }
    let one = SetupTriangle.one
    let (stepX, stepY) = t.edgeSteps
    let bias = t.bias
    var rowEdges = t.edges(Int64(minX) * one + one / 2, Int64(minY) * one + one / 2)
    let state = shader.begin(t, vertices)
    // Depth is affine in screen space: step it along a span instead of rebuilding it from the
    // barycentrics at every sample (at most a tile's 64 steps, so drift stays within a few ulps).
    let zWeights = t.z * t.inverseArea
    let dzdx = (SIMD3<Float>(stepX) * zWeights).sum()
    // Perspective-correct weights: the edge functions times 1/w are linear in screen space;
    // normalised, they weight the vertices. Only shaders that read attributes pay for them.
    let dqx = SIMD3<Float>(stepX) * t.inverseW, dqy = SIMD3<Float>(stepY) * t.inverseW
    let count = maxX - minX + 1
    // A flat colour is encoded once for the whole triangle.
    let flat = shader.flatColor(state).map { target.store.encode($0) }
    for py in minY...maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ bias, step: stepX, count: count)
      if lo <= hi {
        let start = rowEdges &+ stepX &* Int64(lo)
        var z = (SIMD3<Float>(start) * zWeights).sum()
        let q0 = SIMD3<Float>(start) * t.inverseW
        let row = py * target.width + minX
        if let flat {
          for i in lo...hi {
            if z < target.depth[row + i] {
              target.depth[row + i] = z
              target.store.write(flat, at: row + i)
            }
            z += dzdx
          }
          rowEdges = rowEdges &+ stepY
          continue
        }
        for i in lo...hi {
          let index = row + i
          if z < target.depth[index] {
            var mu = Weights(here: .zero, right: .zero, below: .zero)
            if Shader.readsAttributes {
              let q = q0 + dqx * Float(i - lo)
              let r = 1 / q.sum()
              mu = Weights(here: q * r, right: (q + dqx) * r, below: (q + dqy) * r)
            }
            if var color = shader.shade(state, mu) {
              if color.w < 1 {
                // "Over" compositing for translucent surfaces, in linear light.
                let under = target.store.color(at: index), a = color.w
                color = SIMD4(
                  SIMD3(color.x, color.y, color.z) * a + SIMD3(under.x, under.y, under.z) * (1 - a),
                  a + under.w * (1 - a))
              }
              if color.w >= 0.999 { target.depth[index] = z }  // opaque: write depth
              target.store.write(target.store.encode(color), at: index)
            }
          }
          z += dzdx
        }
      }
      rowEdges = rowEdges &+ stepY
    }
  }

  /// The samples `lo...hi` (offsets from the row's first) where all three biased edge
  /// functions `e + i·step` are ≥ 0, among `0..<count`; empty when `lo > hi`.
  ///
  /// Each edge bounds the span on one side; the bound is a division, done only when the edge
  /// really crosses the row inside the span so far (rows in a triangle's interior need none).
  @inline(__always)
  static func coveredSpan(_ e: SIMD3<Int64>, step: SIMD3<Int64>, count: Int) -> (Int, Int) {
    var lo: Int64 = 0, hi = Int64(count - 1)
    for k in 0..<3 {
      let ek = e[k], s = step[k]
      if s > 0 {
        // Rising along the row: covered from the first i with ek + i·s ≥ 0.
        if ek + s &* lo < 0 {
          if ek + s &* hi < 0 { return (0, -1) }
          lo = (-ek + s - 1) / s
        }
      } else if s < 0 {
        // Falling: covered up to the last i with ek + i·s ≥ 0.
        if ek + s &* lo < 0 { return (0, -1) }
        if ek + s &* hi < 0 { hi = ek / -s }
      } else if ek < 0 {
        return (0, -1)
      }
    }
    return (Int(lo), Int(hi))
  }

  /// The unit face normal from the world positions by the counter-clockwise rule, in the
  /// file's winding (undoing setup's swap).
  @inline(__always)
  static func flatNormal(_ v: (ClipVertex, ClipVertex, ClipVertex), swapped: Bool) -> SIMD3<Float> {
    let p0 = SIMD3(v.0.worldAndU.x, v.0.worldAndU.y, v.0.worldAndU.z)
    let p1 = SIMD3(v.1.worldAndU.x, v.1.worldAndU.y, v.1.worldAndU.z)
    let p2 = SIMD3(v.2.worldAndU.x, v.2.worldAndU.y, v.2.worldAndU.z)
    let n = (p1 - p0).cross(p2 - p0)
    let l = n.length
    guard l > 0 else { return .zero }
    return swapped ? -n / l : n / l
  }
}

/// One batch's triangles and tile bins as plain pointers (valid while the batch is unchanged).
struct BinnedTriangles {
  let triangles: UnsafePointer<SetupTriangle>
  let binStart: UnsafePointer<Int32>
  let binned: UnsafePointer<Int32>

  init(_ batch: SetupBatch) {
    // The arrays are not modified while the frame is rasterized: their storage stays put.
    triangles = batch.triangles.withUnsafeBufferPointer { $0.baseAddress! }
    binStart = batch.binStart.withUnsafeBufferPointer { $0.baseAddress! }
    binned = batch.binnedTriangles.withUnsafeBufferPointer { $0.baseAddress ?? UnsafePointer(bitPattern: 8)! }
  }
}

/// The render target's buffers as plain pointers: passing them per triangle costs no reference
/// counting, unlike the class that owns them.
struct TargetView<Store: SampleStore> {
  let store: Store
  let depth: UnsafeMutablePointer<Float>
  let width: Int
}
