import ARMesh
import ARMath
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

  /// Runs the stage for `draws` seen through `clipFromWorld` on a `width × height` sample grid
  /// binned into square tiles of `tileSize`.
  /// - Parameters:
  ///   - sortTranslucent: Draw blended materials last, back to front (lit mode); the
  ///     comparison modes keep GL's plain draw order.
  ///   - attributes: Compute the vertices' attributes besides their clip positions (any shading
  ///     but unlit reads them).
  func run(
    _ draws: [DrawCall], clipFromWorld: Matrix4<Float>, width: Int, height: Int, tileSize: Int,
    sortTranslucent: Bool, attributes: Bool, threads: Int
  ) {
    let layout = DrawLayout(draws, clipFromWorld: clipFromWorld)
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
    for (b, batch) in batches.enumerated() {
      // The arrays are not modified while the frame is rasterized: their storage stays put.
      clippedBases[b] = batch.clippedVertices.withUnsafeBufferPointer { $0.baseAddress }
    }
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
    translucent.triangles = all.map { batches[$0.batch].blended[$0.index].triangle }
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

/// Where a frame's triangles come from: each draw's transforms and its place in the frame's
/// vertex and triangle sequences.
struct DrawLayout: @unchecked Sendable {
  struct Entry {
    let draw: DrawCall
    let clipFromModel: Matrix4<Float>
    let normalMatrix: Matrix3<Float>
    /// The draw's first vertex and first triangle in the frame's sequences.
    let vertexStart: Int, triangleStart: Int
  }
  let entries: [Entry]
  let vertexCount: Int, triangleCount: Int

  init(_ draws: [DrawCall], clipFromWorld: Matrix4<Float>) {
    var entries: [Entry] = []
    var (vertices, triangles) = (0, 0)
    for draw in draws {
      entries.append(
        Entry(
          draw: draw, clipFromModel: clipFromWorld * draw.worldFromModel,
          normalMatrix: draw.worldFromModel.linear.inverse?.transposed ?? .identity, vertexStart: vertices,
          triangleStart: triangles))
      vertices += draw.mesh.vertexCount
      triangles += draw.mesh.triangleCount
    }
    self.entries = entries
    vertexCount = vertices
    triangleCount = triangles
  }

  /// The vertex stage for the frame's vertices `range`: clip positions and the outcodes for
  /// clipping, and into `attributes` (when given) world position and normal, texture
  /// coordinates and colour.
  func transformVertices(
    _ range: Range<Int>, positions out: UnsafeMutablePointer<SIMD4<Float>>,
    attributes: UnsafeMutablePointer<VertexAttributes>?, outcodes: UnsafeMutablePointer<UInt8>
  ) {
    for entry in entries {
      let mesh = entry.draw.mesh
      let own = range.clamped(to: entry.vertexStart..<entry.vertexStart + mesh.vertexCount)
      guard !own.isEmpty else { continue }
      mesh.positions.withUnsafeBufferPointer { positions in
        for g in own {
          let clip = entry.clipFromModel * SIMD4(positions[g - entry.vertexStart], 1)
          out[g] = clip
          outcodes[g] = FrustumClipper.outcode(clip)
        }
      }
      guard let attributes else { continue }
      let worldFromModel = entry.draw.worldFromModel
      mesh.positions.withUnsafeBufferPointer { positions in
        mesh.normals.withUnsafeBufferPointer { normals in
          mesh.texcoords.withUnsafeBufferPointer { texcoords in
            mesh.colors.withUnsafeBufferPointer { colors in
              for g in own {
                let i = g - entry.vertexStart
                let world = worldFromModel.transformPoint(positions[i])
                let n = entry.normalMatrix * normals[i]
                let uv = texcoords.isEmpty ? SIMD2<Float>(0, 0) : texcoords[i]
                let color = colors.isEmpty ? SIMD3<Float>(1, 1, 1) : colors[i]
                attributes[g] = VertexAttributes(
                  worldAndU: SIMD4(world, uv.x), normalAndV: SIMD4(n, uv.y), color: SIMD4(color, 1))
              }
            }
          }
        }
      }
    }
  }
}

/// The square tiles a target is cut into.
struct TileGrid {
  let tileSize: Int, tilesX: Int, tilesY: Int
  var count: Int { tilesX * tilesY }

  /// log2 of the tile size when it is a power of two (a shift then finds the tile), else −1.
  private let shift: Int

  init(width: Int, height: Int, tileSize: Int) {
    self.tileSize = tileSize
    tilesX = (width + tileSize - 1) / tileSize
    tilesY = (height + tileSize - 1) / tileSize
    shift = tileSize & (tileSize - 1) == 0 ? tileSize.trailingZeroBitCount : -1
  }

  /// The tile row or column of sample row or column `i`.
  @inline(__always)
  func tile(_ i: Int) -> Int { shift >= 0 ? i >> shift : i / tileSize }
}

/// The triangles one worker set up, in draw order, the vertices its clipping created, and the
/// triangles binned per tile.
final class SetupBatch: @unchecked Sendable {
  /// The triangles drawn in draw order.
  var triangles: [SetupTriangle] = []
  /// Blended triangles, held back to be sorted across batches.
  var blended: [(distance: Float, triangle: SetupTriangle)] = []
  /// Vertices made by clipping, referred to as `FrameVertices.sharedCount + i`.
  var clippedVertices: [ClipVertex] = []
  /// Bin of tile `k`: `binnedTriangles[binStart[k] ..< binStart[k + 1]]`, indices into `triangles`.
  var binStart: [Int32] = []
  var binnedTriangles: [Int32] = []
  /// Each triangle's tiles as (first x, first y, last x, last y), for binning.
  private var tileRects: [SIMD4<UInt16>] = []
  private(set) var index = 0

  func reset(index: Int) {
    self.index = index
    triangles.removeAll(keepingCapacity: true)
    blended.removeAll(keepingCapacity: true)
    clippedVertices.removeAll(keepingCapacity: true)
    binStart.removeAll(keepingCapacity: true)
    binnedTriangles.removeAll(keepingCapacity: true)
  }

  /// Clips and sets up the frame's triangles `range`.
  func setUp(
    _ layout: DrawLayout, triangles range: Range<Int>, positions: UnsafePointer<SIMD4<Float>>,
    attributes: UnsafePointer<VertexAttributes>?,
    outcodes: UnsafePointer<UInt8>, width: Int, height: Int, sortTranslucent: Bool
  ) {
    // The arrays as locals while they grow: appending to a class's stored array checks
    // exclusive access at run time on every triangle.
    var (triangles, blended, clippedVertices) = (self.triangles, self.blended, self.clippedVertices)
    (self.triangles, self.blended, self.clippedVertices) = ([], [], [])
    defer { (self.triangles, self.blended, self.clippedVertices) = (triangles, blended, clippedVertices) }
    // Room for one triangle each at once (clipping may add more): a first frame grew the array
    // by doubling, copying it each time (2% of a one-frame render of the 100k sphere).
    triangles.reserveCapacity(range.count)
    let batchIndex = UInt16(index)
    var polygon: [ClipVertex] = []
    polygon.reserveCapacity(9)
    // A whole vertex, for clipping (its attributes are interpolated too, when there are any).
    let none = VertexAttributes(worldAndU: .zero, normalAndV: .zero, color: .zero)
    func vertex(_ i: Int) -> ClipVertex { ClipVertex(clip: positions[i], attributes: attributes?[i] ?? none) }
    let sharedCount = layout.vertexCount
    for (d, entry) in layout.entries.enumerated() {
      let draw = entry.draw
      for submesh in draw.mesh.submeshes {
        let start = entry.triangleStart + submesh.triangles.lowerBound
        let own = range.clamped(to: start..<start + submesh.triangles.count)
        guard !own.isEmpty else { continue }
        let material = draw.materials[submesh.material]
        // Thin see-through surfaces (cut-out leaves, glass panes) show both sides.
        let cull = draw.cullBackFaces && material.alphaMode == .opaque
        let isBlended = sortTranslucent && material.alphaMode == .blend
        let materialIndex = Int32(submesh.material)
        // (The arrays are passed, not captured: captured, each append was checked for exclusive
        // access at run time.)
        @inline(__always) func emit(
          _ triangle: SetupTriangle?, _ triangles: inout [SetupTriangle],
          _ blended: inout [(distance: Float, triangle: SetupTriangle)]
        ) {
          guard let triangle else { return }
          if isBlended {
            // Distance from the camera plane: 1/w is the reciprocal of the eye-space depth.
            let depth = (1 / triangle.inverseW).sum() / 3
            blended.append((depth, triangle))
          } else {
            triangles.append(triangle)
          }
        }
        draw.mesh.indices.withUnsafeBufferPointer { indices in
          for g in own {
            let t = g - entry.triangleStart
            let ia = Int(indices[3 * t]) + entry.vertexStart, ib = Int(indices[3 * t + 1]) + entry.vertexStart
            let ic = Int(indices[3 * t + 2]) + entry.vertexStart
            let (oa, ob, oc) = (outcodes[ia], outcodes[ib], outcodes[ic])
            if oa & ob & oc != 0 { continue }  // wholly outside one plane
            if oa | ob | oc == 0 {
              emit(
                SetupTriangle(
                  positions[ia], positions[ib], positions[ic],
                  indices: SIMD3(Int32(ia), Int32(ib), Int32(ic)),
                  width: width, height: height, cullBackFaces: cull, draw: Int32(d), material: materialIndex,
                  batch: batchIndex), &triangles, &blended)
              continue
            }
            FrustumClipper.clip(
              vertex(ia), vertex(ib), vertex(ic), outcodes: oa | ob | oc, into: &polygon)
            guard polygon.count >= 3 else { continue }
            let first = Int32(sharedCount + clippedVertices.count)
            clippedVertices += polygon
            for k in 1..<Int32(polygon.count - 1) {  // the clipped polygon is convex: a fan
              let p = Int(k)
              emit(
                SetupTriangle(
                  polygon[0].clip, polygon[p].clip, polygon[p + 1].clip,
                  indices: SIMD3(first, first + k, first + k + 1),
                  width: width, height: height, cullBackFaces: cull, draw: Int32(d), material: materialIndex,
                  batch: batchIndex), &triangles, &blended)
            }
          }
        }
      }
    }
  }

  /// Bins `triangles` into the tiles their bounding boxes touch, keeping their order: a count,
  /// a prefix sum, a fill.
  func bin(_ grid: TileGrid) {
    binStart.removeAll(keepingCapacity: true)
    binStart.append(contentsOf: repeatElement(0, count: grid.count + 1))
    // Each triangle's tile rectangle, found while counting: the fill pass then reads 8 bytes a
    // triangle instead of its whole record again (a frame of small triangles is mostly records).
    var tileRects = self.tileRects
    self.tileRects = []
    defer { self.tileRects = tileRects }
    // Sized first and written in place: appending checked the array's uniqueness in a runtime
    // call for every triangle.
    tileRects.removeAll(keepingCapacity: true)
    tileRects.append(contentsOf: repeatElement(.zero, count: triangles.count))
    binStart.withUnsafeMutableBufferPointer { start in
      tileRects.withUnsafeMutableBufferPointer { rects in
        for (i, t) in triangles.enumerated() {
          let rect = SIMD4(
            UInt16(truncatingIfNeeded: grid.tile(Int(t.minX))),
            UInt16(truncatingIfNeeded: grid.tile(Int(t.minY))),
            UInt16(truncatingIfNeeded: grid.tile(Int(t.maxX))),
            UInt16(truncatingIfNeeded: grid.tile(Int(t.maxY))))
          rects[i] = rect
          for ty in Int(rect.y)...Int(rect.w) {
            for tx in Int(rect.x)...Int(rect.z) { start[ty &* grid.tilesX &+ tx &+ 1] &+= 1 }
          }
        }
      }
      for k in 0..<grid.count { start[k + 1] += start[k] }
      // Reused from frame to frame: fresh pages for a large frame cost more than filling them.
      binnedTriangles.removeAll(keepingCapacity: true)
      binnedTriangles.append(contentsOf: repeatElement(0, count: Int(start[grid.count])))
      binnedTriangles.withUnsafeMutableBufferPointer { items in
        var next = Array(start[0..<grid.count])
        // Through a pointer: each increment of the array checked its uniqueness in a runtime call.
        next.withUnsafeMutableBufferPointer { next in
          for (i, rect) in tileRects.enumerated() {
            for ty in Int(rect.y)...Int(rect.w) {
              for tx in Int(rect.x)...Int(rect.z) {
                let k = ty &* grid.tilesX &+ tx
                items[Int(next[k])] = Int32(i)
                next[k] &+= 1
              }
            }
          }
        }
      }
    }
  }

}

/// A frame's vertex buffers as plain pointers, for the rasterizer's workers.
struct FrameVertices: @unchecked Sendable {
  let positions: UnsafePointer<SIMD4<Float>>
  /// Nil when the frame's shading reads only clip positions.
  let attributes: UnsafePointer<VertexAttributes>?
  let sharedCount: Int
  /// Each batch's clipped vertices.
  let clipped: UnsafePointer<UnsafePointer<ClipVertex>?>

  /// The attributes of `t`'s three vertices, in its rasterization order. Only for frames with
  /// attributes.
  @inline(__always)
  func of(_ t: SetupTriangle) -> (VertexAttributes, VertexAttributes, VertexAttributes) {
    @inline(__always) func at(_ i: Int32) -> VertexAttributes {
      let i = Int(i)
      return i < sharedCount
        ? attributes.unsafelyUnwrapped[i]
        : clipped[Int(t.batch)].unsafelyUnwrapped[i - sharedCount].attributes
    }
    return (at(t.vertex.x), at(t.vertex.y), at(t.vertex.z))
  }

  /// Starts loading the attributes of `t`'s vertices into the cache.
  @inline(__always)
  func prefetch(_ t: SetupTriangle) {
    guard let attributes else { return }
    for i in [t.vertex.x, t.vertex.y, t.vertex.z] where Int(i) < sharedCount {
      arscene_prefetch(attributes + Int(i))
    }
  }
}
