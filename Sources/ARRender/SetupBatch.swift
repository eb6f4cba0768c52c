import ARMath

/// The triangles one worker set up, in draw order, the vertices its clipping created, and the
/// triangles binned per tile.
///
/// The triangles, clipped vertices and bins are ``RenderBuffer``s the batch owns and frees: the
/// rasterizer's workers read them through pointers (``BinnedTriangles``, ``FrameVertices``)
/// for the whole frame, and nothing grows them until the next frame's setup.
final class SetupBatch: @unchecked Sendable {
  /// The triangles drawn in draw order.
  var triangles = RenderBuffer<SetupTriangle>()
  /// Blended triangles, held back to be sorted across batches.
  var blended: [(distance: Float, triangle: SetupTriangle)] = []
  /// Vertices made by clipping, referred to as `FrameVertices.sharedCount + i`.
  var clippedVertices = RenderBuffer<ClipVertex>()
  /// Bin of tile `k`: `binnedTriangles[binStart[k] ..< binStart[k + 1]]`, indices into `triangles`.
  private(set) var binStart = RenderBuffer<Int32>()
  private(set) var binnedTriangles = RenderBuffer<Int32>()
  /// Each triangle's tiles as (first x, first y, last x, last y), for binning.
  private var tileRects = RenderBuffer<SIMD4<UInt16>>()
  private(set) var index = 0

  deinit {
    triangles.deallocate()
    clippedVertices.deallocate()
    binStart.deallocate()
    binnedTriangles.deallocate()
    tileRects.deallocate()
  }

  func reset(index: Int) {
    self.index = index
    triangles.removeAll()
    blended.removeAll(keepingCapacity: true)
    clippedVertices.removeAll()
    binStart.removeAll()
    binnedTriangles.removeAll()
  }

  /// Clips and sets up the frame's triangles `range`.
  func setUp(
    _ layout: DrawLayout, triangles range: Range<Int>, positions: UnsafePointer<SIMD4<Float>>,
    attributes: UnsafePointer<VertexAttributes>?,
    outcodes: UnsafePointer<UInt8>, width: Int, height: Int, sortTranslucent: Bool
  ) {
    // The buffers as locals while they grow: appending to a class's stored property checks
    // exclusive access at run time on every triangle.
    var (triangles, blended, clippedVertices) = (self.triangles, self.blended, self.clippedVertices)
    self.blended = []
    defer { (self.triangles, self.blended, self.clippedVertices) = (triangles, blended, clippedVertices) }
    // Room for one triangle each at once (clipping may add more): a first frame grew the buffer
    // step by step, copying it each time (2% of a one-frame render of the 100k sphere).
    triangles.reserve(range.count)
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
        // Thin see-through surfaces (cut-out leaves, glass panes) and double-sided materials
        // show both sides.
        let cull = draw.cullBackFaces && material.alphaMode == .opaque && !material.doubleSided
        let isBlended = sortTranslucent && material.alphaMode == .blend
        let materialIndex = Int32(submesh.material)
        // (The arrays are passed, not captured: captured, each append was checked for exclusive
        // access at run time.)
        @inline(__always) func emit(
          _ triangle: SetupTriangle?, _ triangles: inout RenderBuffer<SetupTriangle>,
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
              vertex(ia), vertex(ib), vertex(ic), outcodes: oa | ob | oc, farLimit: layout.farLimit,
              into: &polygon)
            guard polygon.count >= 3 else { continue }
            let first = Int32(sharedCount + clippedVertices.count)
            clippedVertices.append(contentsOf: polygon)
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
    let triangles = self.triangles
    binStart.replace(count: grid.count + 1, with: 0)
    // Each triangle's tile rectangle, found while counting: the fill pass then reads 8 bytes a
    // triangle instead of its whole record again (a frame of small triangles is mostly records).
    tileRects.replace(count: triangles.count, with: .zero)
    let starts = binStart.base, rects = tileRects.base
    for i in 0..<triangles.count {
      let t = triangles.base + i
      let rect = SIMD4(
        UInt16(truncatingIfNeeded: grid.tile(Int(t.pointee.minX))),
        UInt16(truncatingIfNeeded: grid.tile(Int(t.pointee.minY))),
        UInt16(truncatingIfNeeded: grid.tile(Int(t.pointee.maxX))),
        UInt16(truncatingIfNeeded: grid.tile(Int(t.pointee.maxY))))
      rects[i] = rect
      for ty in Int(rect.y)...Int(rect.w) {
        for tx in Int(rect.x)...Int(rect.z) { starts[ty &* grid.tilesX &+ tx &+ 1] &+= 1 }
      }
    }
    for k in 0..<grid.count { starts[k + 1] += starts[k] }
    // Reused from frame to frame: fresh pages for a large frame cost more than filling them.
    binnedTriangles.replace(count: Int(starts[grid.count]), with: 0)
    let items = binnedTriangles.base
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: grid.count) { next in
      _ = next.initialize(from: UnsafeBufferPointer(start: starts, count: grid.count))
      for i in 0..<tileRects.count {
        let rect = rects[i]
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
