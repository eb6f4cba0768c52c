/// One rasterizer worker's state, reused tile after tile: its fragment batch, the visibility
/// buffers and marking order of deferred shading, and the frame it draws (shader, vertices,
/// every batch's binned triangles).
///
/// A tile is drawn in three steps (``draw(tile:xs:ys:into:visible:)``):
/// 1. with deferred shading, the opaque triangles nearest first are only marked where they are
///    in front (``markNearFirst(tile:xs:ys:marking:)``; see ``MarkingOrder``);
/// 2. the rest in draw order (``drawInOrder(from:rank:tile:xs:ys:into:visible:marking:)``):
///    opaque ones marked likewise, the others drawn at once over what the opaque ones before
///    them leave (``Renderer/drawTriangle(_:vertices:tileX:tileY:target:shader:batch:)``);
/// 3. the marked samples shaded, each once (``Renderer/shadeVisible(_:visible:vertices:target:shader:batch:)``).
struct TileWorker<Shader: FragmentShader> {
  let shader: Shader
  let vertices: FrameVertices
  let batches: UnsafeBufferPointer<BinnedTriangles>
  private let fragments: FragmentBatch
  private let batchStorage: UnsafeMutableRawPointer
  private var visibility = TileVisibility()
  private var hiddenTest = HiddenTriangleTest()
  private var order = MarkingOrder()

  init(shader: Shader, vertices: FrameVertices, batches: UnsafeBufferPointer<BinnedTriangles>) {
    self.shader = shader
    self.vertices = vertices
    self.batches = batches
    batchStorage = UnsafeMutableRawPointer.allocate(byteCount: FragmentBatch.storageBytes, alignment: 16)
    batchStorage.initializeMemory(as: UInt8.self, repeating: 0, count: FragmentBatch.storageBytes)
    fragments = FragmentBatch(storage: batchStorage)
  }

  func deallocate() {
    batchStorage.deallocate()
    visibility.deallocate()
    order.deallocate()
  }

  /// Where opaque triangles are marked: the tile's depth and per-sample triangle ranks.
  typealias Marking = (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int)

  /// Draws tile `tile` (samples `xs × ys`, cleared) into `view`; `visible` holds its samples'
  /// front triangles while shading is deferred.
  @inline(__always)
  mutating func draw<Store: SampleStore>(
    tile: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, into view: TargetView<Store>,
    visible: UnsafeMutablePointer<Int32>
  ) {
    let marking: Marking = (depth: view.depth, visible: visible, width: view.depthWidth)
    var start = (batch: 0, position: Int(batches[0].binStart[tile]))
    var rank: Int32 = 0
    if shader.defersShading {
      start = markNearFirst(tile: tile, xs: xs, ys: ys, marking: marking)
      rank = Int32(truncatingIfNeeded: order.first.count &+ order.second.count)
    }
    drawInOrder(
      from: start, rank: rank, tile: tile, xs: xs, ys: ys, into: view, visible: visible, marking: marking)
    if visibility.count > 0 {
      Renderer.shadeVisible(
        &visibility, visible: visible, vertices: vertices, target: view, shader: shader, batch: fragments)
    }
  }

  /// Step 1: the tile's leading opaque triangles, arranged near faces first, marked where they
  /// are in front. Returns where the draw-order walk goes on.
  @inline(__always)
  private mutating func markNearFirst(
    tile: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, marking: Marking
  ) -> (batch: Int, position: Int) {
    let shader = self.shader
    let start = order.arrange(batches, tile: tile) { shader.isOpaque($0.pointee) }
    for i in order.first {
      Renderer.markOpaque(
        order.triangles[i], rank: order.ranks[i], tileX: xs, tileY: ys, in: marking,
        visibility: &visibility, hiddenTest: &hiddenTest, ties: nil)
    }
    for i in order.second {
      Renderer.markOpaque(
        order.triangles[i], rank: order.ranks[i], tileX: xs, tileY: ys, in: marking,
        visibility: &visibility, hiddenTest: &hiddenTest,
        ties: DepthTies(rank: order.ranks[i], ranks: visibility.ranks))
    }
    return (start.view, start.position)
  }

  /// Step 2: the tile's triangles from `start` on, in draw order, ranked from `rank`.
  @inline(__always)
  private mutating func drawInOrder<Store: SampleStore>(
    from start: (batch: Int, position: Int), rank: Int32, tile: Int, xs: ClosedRange<Int>,
    ys: ClosedRange<Int>, into view: TargetView<Store>, visible: UnsafeMutablePointer<Int32>, marking: Marking
  ) {
    var rank = rank
    // Copies in registers: through `self` (inout) each would be reloaded after every call.
    let (shader, vertices, fragments) = (self.shader, self.vertices, self.fragments)
    let defers = shader.defersShading
    for b in start.batch..<batches.count {
      let setup = batches[b]
      let bin =
        (b == start.batch ? start.position : Int(setup.binStart[tile]))..<Int(setup.binStart[tile + 1])
      for k in bin {
        // The triangle a few ahead, and the vertices of the one after this.
        setup.prefetch(after: k, end: bin.upperBound)
        let pointer = setup.triangles + Int(setup.binned[k])
        let t = pointer.pointee
        defer { rank &+= 1 }
        if defers && shader.isOpaque(t) {
          // Opaque: only marked now where it is in front, shaded once all are marked.
          Renderer.markOpaque(
            pointer, rank: rank, tileX: xs, tileY: ys, in: marking, visibility: &visibility,
            hiddenTest: &hiddenTest, ties: nil)
          continue
        }
        // Drawn at once, over what the opaque triangles before it leave.
        if visibility.count > 0 {
          Renderer.shadeVisible(
            &visibility, visible: visible, vertices: vertices, target: view, shader: shader, batch: fragments)
        }
        if shader.readsVertices && k + 1 < bin.upperBound {
          vertices.prefetch(setup.triangles[Int(setup.binned[k + 1])])
        }
        Renderer.drawTriangle(
          t, vertices: vertices, tileX: xs, tileY: ys, target: view, shader: shader, batch: fragments)
      }
    }
  }
}
