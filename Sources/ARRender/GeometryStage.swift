import ARMath
import ARMesh
import CMathShims
import Dispatch

/// The vertex stage, clipping, triangle setup and binning of one frame, run on all workers.
///
/// Work is split by position in the frame's triangle sequence (every draw's triangles in
/// order): worker `k` sets up the `k`-th slice into its own ``SetupBatch``, and the rasterizer
/// walks the batches in order, so each tile still sees the triangles in draw order, whatever the
/// number of workers. Buffers are kept from frame to frame: a recording's frames allocate nothing.
final class GeometryStage: @unchecked Sendable {
  /// Every draw's vertices after the vertex stage, one draw after another: clip positions, and
  /// the other attributes when the frame's shading reads them.
  private var positions = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 0)
  private var attributes = UnsafeMutablePointer<VertexAttributes>.allocate(capacity: 0)
  private var hasAttributes = false
  /// Their frustum outcodes (bit i: outside plane i).
  private var outcodes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  private var vertexCapacity = 0
  /// Where each batch's clipped vertices are, for ``frameVertices``.
  private let clippedBases = UnsafeMutablePointer<UnsafePointer<ClipVertex>?>.allocate(
    capacity: RenderSettings.maximumThreads)
  private(set) var vertexCount = 0
  /// One batch per worker, in triangle order, then the sorted translucent triangles.
  private(set) var batches: [SetupBatch] = []
  let translucent = SetupBatch()

  deinit {
    positions.deallocate()
    attributes.deallocate()
    outcodes.deallocate()
    clippedBases.deallocate()
  }

  /// Runs the stage for `draws` seen by `camera` on a `width × height` sample grid (the
  /// camera's intrinsics at that size) binned into square tiles of `tileSize`. Vertex
  /// attributes are in the camera's shading frame (see ``DrawLayout``).
  /// - Parameters:
  ///   - sortTranslucent: Draw blended materials last, back to front (lit mode); the
  ///     comparison modes keep GL's plain draw order.
  ///   - attributes: Compute the vertices' attributes besides their clip positions (any shading
  ///     but unlit reads them).
  func run(
    _ draws: [DrawCall], camera: RenderCamera, width: Int, height: Int, tileSize: Int,
    sortTranslucent: Bool, attributes: Bool, threads: Int
  ) {
    let layout = DrawLayout(draws, camera: camera)
    reserveVertices(layout.vertexCount)
    vertexCount = layout.vertexCount
    while batches.count < threads { batches.append(SetupBatch()) }
    let grid = TileGrid(width: width, height: height, tileSize: tileSize)
    hasAttributes = attributes
    let (positions, outcodes) = (
      UnsafeSendableMutablePointer(positions), UnsafeSendableMutablePointer(outcodes)
    )
    let attributes = attributes ? UnsafeSendableMutablePointer(self.attributes) : nil
    let batches = self.batches
    // Worker k's contiguous share of `total` items.
    @Sendable func share(_ total: Int, _ worker: Int) -> Range<Int> {
      (total * worker / threads)..<(total * (worker + 1) / threads)
    }
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
      layout.transformVertices(
        share(layout.vertexCount, worker), positions: positions.pointer, attributes: attributes?.pointer,
        outcodes: outcodes.pointer)
    }
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
      let batch = batches[worker]
      batch.reset(index: worker)
      batch.setUp(
        layout, triangles: share(layout.triangleCount, worker), positions: positions.pointer,
        attributes: attributes?.pointer,
        outcodes: outcodes.pointer, width: width, height: height, sortTranslucent: sortTranslucent)
      batch.bin(grid)
    }
    for batch in batches[threads...] { batch.reset(index: 0) }
    collectTranslucent(grid)
  }

  /// The frame's vertex buffers, valid until the next `run`.
  var frameVertices: FrameVertices {
    for (b, batch) in batches.enumerated() { clippedBases[b] = UnsafePointer(batch.clippedVertices.base) }
    return FrameVertices(
      positions: positions, attributes: hasAttributes ? attributes : nil, sharedCount: vertexCount,
      clipped: clippedBases)
  }

  /// Blended triangles from every batch, farthest first; equal distances keep their draw order
  /// (batch, then position), so the result is deterministic.
  private func collectTranslucent(_ grid: TileGrid) {
    translucent.reset(index: 0)
    var all: [(distance: Float, batch: Int, index: Int)] = []
    for (b, batch) in batches.enumerated() {
      for (i, entry) in batch.blended.enumerated() { all.append((entry.distance, b, i)) }
    }
    guard !all.isEmpty else { return }
    all.sort { p, q in
      p.distance != q.distance ? p.distance > q.distance : (p.batch, p.index) < (q.batch, q.index)
    }
    translucent.triangles.append(
      contentsOf: all.lazy.map { self.batches[$0.batch].blended[$0.index].triangle })
    translucent.bin(grid)
  }

  private func reserveVertices(_ count: Int) {
    guard count > vertexCapacity else { return }
    let capacity = Swift.max(count, vertexCapacity * 3 / 2)
    positions.deallocate()
    attributes.deallocate()
    outcodes.deallocate()
    positions = .allocate(capacity: capacity)
    attributes = .allocate(capacity: capacity)
    outcodes = .allocate(capacity: capacity)
    vertexCapacity = capacity
  }
}
