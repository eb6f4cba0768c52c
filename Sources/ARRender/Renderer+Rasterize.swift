import ARMath
import Dispatch

extension Renderer {
  /// The side of a square tile, in samples. Triangles are binned per tile; each tile is drawn
  /// by one thread, in triangle order, so the result never depends on the thread count.
  static let tileSize = 64

  /// Draws the triangles with the fragment shader `shader`, a generic parameter so that each
  /// shader gets its own specialised inner loop (no per-pixel dispatch).
  static func rasterize<Shader: FragmentShader>(
    _ triangles: [SetupTriangle], into target: RenderTarget, shader: Shader, threads: Int
  ) {
    let tilesX = (target.width + tileSize - 1) / tileSize, tilesY = (target.height + tileSize - 1) / tileSize
    // Bin: each triangle into every tile its bounding box touches, in order.
    var bins = [[Int32]](repeating: [], count: tilesX * tilesY)
    for (i, t) in triangles.enumerated() {
      for ty in (t.minY / tileSize)...(t.maxY / tileSize) {
        for tx in (t.minX / tileSize)...(t.maxX / tileSize) { bins[ty * tilesX + tx].append(Int32(i)) }
      }
    }
    let (width, height) = (target.width, target.height)
    triangles.withUnsafeBufferPointer { tris in
      let tris = UnsafeSendableBuffer(tris)
      let bins = bins
      DispatchQueue.concurrentPerform(iterations: threads) { worker in
        var tile = worker
        while tile < tilesX * tilesY {  // tiles dealt round-robin: a fixed split per worker
          let x0 = (tile % tilesX) * tileSize, y0 = (tile / tilesX) * tileSize
          let x1 = Swift.min(x0 + tileSize, width) - 1, y1 = Swift.min(y0 + tileSize, height) - 1
          target.clear(x0...x1, y0...y1)
          let view = TargetView(color: target.color, depth: target.depth, width: width)
          for index in bins[tile] {
            drawTriangle(
              tris.buffer[Int(index)], tileX: x0...x1, tileY: y0...y1, target: view, shader: shader)
          }
          tile += threads
        }
      }
    }
  }

  /// Covers the pixel centres of `t` inside the tile: edge functions stepped incrementally in
  /// fixed point, the top-left rule through the per-edge bias, depth test, perspective-correct
  /// attributes, shading.
  @inline(__always)
  static func drawTriangle<Shader: FragmentShader>(
    _ t: SetupTriangle, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>, target: TargetView, shader: Shader
  ) {
    let minX = Swift.max(t.minX, tileX.lowerBound), maxX = Swift.min(t.maxX, tileX.upperBound)
    let minY = Swift.max(t.minY, tileY.lowerBound), maxY = Swift.min(t.maxY, tileY.upperBound)
    guard minX <= maxX, minY <= maxY else { return }
    let one = SetupTriangle.one
    // Edge k's start and end vertices, and its change per pixel step in x and in y.
    let ay = SIMD3(t.y.y, t.y.z, t.y.x), by = SIMD3(t.y.z, t.y.x, t.y.y)
    let ax = SIMD3(t.x.y, t.x.z, t.x.x), bx = SIMD3(t.x.z, t.x.x, t.x.y)
    let stepX = (ay &- by) &* one, stepY = (bx &- ax) &* one
    var rowEdges = t.edges(Int64(minX) * one + one / 2, Int64(minY) * one + one / 2)
    let state = shader.begin(t)
    // Depth is affine in screen space: step it along a row instead of rebuilding it from the
    // barycentrics at every pixel (at most a tile's 64 steps, so drift stays within a few ulps).
    let zWeights = t.z * t.inverseArea
    let dzdx = (SIMD3(Float(stepX.x), Float(stepX.y), Float(stepX.z)) * zWeights).sum()
    // The coverage test runs on scalars: the three biased edge values are all ≥ 0 exactly when
    // their bitwise OR is (no sign bit set), one branch instead of three.
    let (bias0, bias1, bias2) = (t.bias.x, t.bias.y, t.bias.z)
    let (step0, step1, step2) = (stepX.x, stepX.y, stepX.z)
    for py in minY...maxY {
      var (e0, e1, e2) = (rowEdges.x &+ bias0, rowEdges.y &+ bias1, rowEdges.z &+ bias2)
      var z = (SIMD3(Float(rowEdges.x), Float(rowEdges.y), Float(rowEdges.z)) * zWeights).sum()
      let row = py * target.width
      for px in minX...maxX {
        if (e0 | e1 | e2) >= 0 && z < target.depth[row + px] {
          let index = row + px
          // Perspective-correct weights: interpolate a/w and 1/w linearly, then divide (only
          // for shaders that read attributes; flat ones need no weights at all).
          var mu = Weights(here: .zero, right: .zero, below: .zero)
          if Shader.readsAttributes {
            let e = SIMD3(e0, e1, e2) &- t.bias
            @inline(__always) func weights(_ e: SIMD3<Int64>) -> SIMD3<Float> {
              let q = SIMD3(Float(e.x), Float(e.y), Float(e.z)) * t.inverseW
              return q / q.sum()
            }
            mu = Weights(here: weights(e), right: weights(e &+ stepX), below: weights(e &+ stepY))
          }
          if let color = shader.shade(t, state, mu, under: target.color[index]) {
            if color.w >= 0.999 { target.depth[index] = z }  // opaque: write depth
            target.color[index] = color  // translucent colours arrive blended, without depth
          }
        }
        e0 &+= step0
        e1 &+= step1
        e2 &+= step2
        z += dzdx
      }
      rowEdges = rowEdges &+ stepY
    }
  }

  /// The unit face normal from the world positions by the counter-clockwise rule, in the
  /// file's winding (undoing setup's swap).
  @inline(__always)
  static func flatNormalOf(_ t: SetupTriangle) -> SIMD3<Float> {
    let p0 = SIMD3(t.v0.worldAndU.x, t.v0.worldAndU.y, t.v0.worldAndU.z)
    let p1 = SIMD3(t.v1.worldAndU.x, t.v1.worldAndU.y, t.v1.worldAndU.z)
    let p2 = SIMD3(t.v2.worldAndU.x, t.v2.worldAndU.y, t.v2.worldAndU.z)
    let n = (p1 - p0).cross(p2 - p0)
    let l = n.length
    guard l > 0 else { return .zero }
    return t.swapped ? -n / l : n / l
  }
}

/// The render target's buffers as plain pointers: passing them per triangle costs no reference
/// counting, unlike the class that owns them.
struct TargetView {
  let color: UnsafeMutablePointer<SIMD4<Float>>
  let depth: UnsafeMutablePointer<Float>
  let width: Int
}
