import ARMath
import CMathShims
import Dispatch

extension Renderer {
  /// Draws the frame's triangles with the fragment shader `shader`, a generic parameter so that
  /// each shader gets its own specialised inner loop (no per-pixel dispatch). Triangles are
  /// binned per tile; each tile is drawn by one thread, in triangle order, so the result never
  /// depends on the thread count.
  static func rasterize<Shader: FragmentShader>(
    _ geometry: GeometryStage, into target: RenderTarget, route: SampleRoute, shader: Shader, threads: Int
  ) {
    switch route {
    case .direct(let output):
      rasterize(geometry, into: target, shader: shader, threads: threads, output: output) { _, _, _, depth in
        TargetView(store: output, colorWidth: target.width, depth: depth, depthWidth: target.tileSize)
      } finish: { _, _, _ in
      }
    case .resolved(let output):
      rasterize(geometry, into: target, shader: shader, threads: threads, output: output) {
        worker, x0, y0, depth in
        TargetView(
          store: target.tileColor(worker: worker, x0: x0, y0: y0), colorWidth: target.tileSize, depth: depth,
          depthWidth: target.tileSize)
      } finish: { view, xs, ys in
        resolve(
          view.store, width: view.colorWidth, factor: target.factor, xs, ys, into: output,
          outputWidth: target.width / target.factor)
      }
    }
  }

  /// The tile loop: `view` gives a worker's buffers for the tile at `(x0, y0)` (its depth
  /// given), `finish` runs when the tile is drawn; tiles no triangle touches get the
  /// background in `output` directly.
  private static func rasterize<Shader: FragmentShader, Store: SampleStore>(
    _ geometry: GeometryStage, into target: RenderTarget, shader: Shader, threads: Int,
    output: EncodedSamples,
    view makeView:
      @Sendable (_ worker: Int, _ x0: Int, _ y0: Int, _ depth: UnsafeMutablePointer<Float>) ->
      TargetView<Store>,
    finish: @Sendable (TargetView<Store>, ClosedRange<Int>, ClosedRange<Int>) -> Void
  ) {
    let tileSize = target.tileSize
    let grid = TileGrid(width: target.width, height: target.height, tileSize: tileSize)
    let (width, height) = (target.width, target.height)
    target.reserveWorkers(threads)
    let vertices = geometry.frameVertices
    // Every batch's triangles and bins as plain pointers: the workers touch no reference count.
    let batches = (geometry.batches + [geometry.translucent]).filter { !$0.triangles.isEmpty }
    let views = batches.map { BinnedTriangles($0) }
    // Tile rows by the triangles binned to them (a measure of their work).
    let binnedPerRow = (0..<grid.tilesY).map { row -> Int in
      let (first, end) = (row * grid.tilesX, (row + 1) * grid.tilesX)
      return views.reduce(0) { sum, view in sum + Int(view.binStart[end] - view.binStart[first]) }
    }
    let queue = TileQueue(tilesPerRow: grid.tilesX, rowWork: binnedPerRow)
    withExtendedLifetime(batches) {
      views.withUnsafeBufferPointer { views in
        let views = UnsafeSendableBuffer(views)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
          var tiles = TileWorker(shader: shader, vertices: vertices, batches: views.buffer)
          defer { tiles.deallocate() }
          // Tiles as the queue hands them out: whole rows, then the far ends of others' rows.
          var claim = TileQueue.Claim()
          while let tile = queue.next(&claim) {
            let x0 = (tile % grid.tilesX) * tileSize, y0 = (tile / grid.tilesX) * tileSize
            let xs = x0...(Swift.min(x0 + tileSize, width) - 1),
              ys = y0...(Swift.min(y0 + tileSize, height) - 1)
            if views.buffer.allSatisfy({ $0.binStart[tile] == $0.binStart[tile + 1] }) {
              target.fillBackground(xs, ys, into: output, outputWidth: width / target.factor)
              target.storeDistances(nil, xs, ys)
              continue
            }
            let depth = target.tileDepth(worker: worker, x0: x0, y0: y0)
            let view = makeView(worker, x0, y0, depth)
            target.clear(xs, ys, in: view)
            tiles.draw(
              tile: tile, xs: xs, ys: ys, into: view,
              visible: target.tileVisibility(worker: worker, x0: x0, y0: y0))
            target.storeDistances(depth, xs, ys)
            finish(view, xs, ys)
          }
        }
      }
    }
  }
}
