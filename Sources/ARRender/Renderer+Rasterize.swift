import ARMath
import CMathShims
import Dispatch

extension Renderer {
  /// Where a frame's samples go: straight into the output image (8-bit, one sample a pixel,
  /// nothing blends), or into each worker's tile of linear colour, resolved into the output
  /// when the tile is done.
  enum SampleRoute {
    case direct(EncodedSamples)
    case resolved(into: EncodedSamples)
  }

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
          let batchStorage = UnsafeMutableRawPointer.allocate(
            byteCount: FragmentBatch.storageBytes, alignment: 16)
          batchStorage.initializeMemory(as: UInt8.self, repeating: 0, count: FragmentBatch.storageBytes)
          defer { batchStorage.deallocate() }
          let fragments = FragmentBatch(storage: batchStorage)
          var visibility = TileVisibility()
          var hiddenTest = HiddenTriangleTest()
          var order = MarkingOrder()
          defer {
            visibility.deallocate()
            order.deallocate()
          }
          let defers = shader.defersShading
          // Tiles as the queue hands them out: whole rows, then the far ends of others' rows.
          var claim = TileQueue.Claim()
          while let tile = queue.next(&claim) {
            let x0 = (tile % grid.tilesX) * tileSize, y0 = (tile / grid.tilesX) * tileSize
            let x1 = Swift.min(x0 + tileSize, width) - 1, y1 = Swift.min(y0 + tileSize, height) - 1
            if views.buffer.allSatisfy({ $0.binStart[tile] == $0.binStart[tile + 1] }) {
              target.fillBackground(x0...x1, y0...y1, into: output, outputWidth: width / target.factor)
              continue
            }
            let view = makeView(worker, x0, y0, target.tileDepth(worker: worker, x0: x0, y0: y0))
            let visible = target.tileVisibility(worker: worker, x0: x0, y0: y0)
            target.clear(x0...x1, y0...y1, in: view)
            let marking = (depth: view.depth, visible: visible, width: view.depthWidth)
            // Opaque triangles with deferred shading: near faces first (see `MarkingOrder`).
            var start = (view: 0, position: Int(views.buffer[0].binStart[tile]))
            var rank: Int32 = 0
            if defers {
              start = order.arrange(views.buffer, tile: tile) { shader.isOpaque($0.pointee) }
              for i in order.first {
                markOpaque(
                  order.triangles[i], rank: order.ranks[i], tileX: x0...x1, tileY: y0...y1, in: marking,
                  visibility: &visibility, hiddenTest: &hiddenTest, ties: nil)
              }
              for i in order.second {
                markOpaque(
                  order.triangles[i], rank: order.ranks[i], tileX: x0...x1, tileY: y0...y1, in: marking,
                  visibility: &visibility, hiddenTest: &hiddenTest,
                  ties: DepthTies(rank: order.ranks[i], ranks: visibility.ranks))
              }
              rank = Int32(truncatingIfNeeded: order.first.count &+ order.second.count)
            }
            // The rest in draw order.
            for v in start.view..<views.buffer.count {
              let setup = views.buffer[v]
              let bin =
                (v == start.view ? start.position : Int(setup.binStart[tile]))..<Int(setup.binStart[tile + 1])
              for k in bin {
                // The triangle a few ahead, and the vertices of the one after this.
                setup.prefetch(after: k, end: bin.upperBound)
                let pointer = setup.triangles + Int(setup.binned[k])
                let t = pointer.pointee
                defer { rank &+= 1 }
                if defers && shader.isOpaque(t) {
                  // Opaque: only marked now where it is in front, shaded once all are marked.
                  markOpaque(
                    pointer, rank: rank, tileX: x0...x1, tileY: y0...y1, in: marking,
                    visibility: &visibility, hiddenTest: &hiddenTest, ties: nil)
                  continue
                }
                // Drawn at once, over what the opaque triangles before it leave.
                if visibility.count > 0 {
                  shadeVisible(
                    &visibility, visible: visible, vertices: vertices, target: view, shader: shader,
                    batch: fragments)
                }
                if shader.readsVertices && k + 1 < bin.upperBound {
                  vertices.prefetch(setup.triangles[Int(setup.binned[k + 1])])
                }
                drawTriangle(
                  t, vertices: vertices, tileX: x0...x1, tileY: y0...y1, target: view, shader: shader,
                  batch: fragments)
              }
            }
            if visibility.count > 0 {
              shadeVisible(
                &visibility, visible: visible, vertices: vertices, target: view, shader: shader,
                batch: fragments)
            }
            finish(view, x0...x1, y0...y1)
          }
        }
      }
    }
  }

  /// Averages each `factor × factor` block of the samples `xs × ys` (box filter in linear light)
  /// into the output pixels they cover, encoded as `output` encodes.
  static func resolve(
    _ samples: LinearSamples, width: Int, factor s: Int, _ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>,
    into output: EncodedSamples, outputWidth: Int
  ) {
    if s == 1 {
      // One sample a pixel: a plain encoding pass.
      for y in ys {
        let row = y * width, outputRow = y * outputWidth
        for x in xs { output.write(output.encode(samples.color[row + x]), at: outputRow + x) }
      }
      return
    }
    let scale = 1 / Float(s * s)
    for y in stride(from: ys.lowerBound, to: ys.upperBound + 1, by: s) {
      for x in stride(from: xs.lowerBound, to: xs.upperBound + 1, by: s) {
        var c = SIMD4<Float>.zero
        for sy in 0..<s {
          for sx in 0..<s { c += samples.color[(y + sy) * width + x + sx] }
        }
        output.write(output.encode(c * scale), at: (y / s) * outputWidth + x / s)
      }
    }
  }

  /// Covers the sample centres of `t` inside the tile: per row, the run the three edge
  /// functions allow (found exactly as testing every sample would, fill rule included),
  /// then the depth test; the samples in front are gathered into `batch` and shaded together
  /// (perspective-correct attributes, textures, lights), then written.
  @inline(__always)
  static func drawTriangle<Shader: FragmentShader, Store: SampleStore>(
    _ t: SetupTriangle, vertices: FrameVertices, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>,
    target: TargetView<Store>, shader: Shader, batch: FragmentBatch
  ) {
    guard let box = TileTriangle(t, tileX: tileX, tileY: tileY) else { return }
    let (minX, minY) = (box.minX, box.minY)
    let (stepX, stepY, bias, dzdx) = (box.stepX, box.stepY, box.bias, box.dzdx)
    var rowEdges = box.originEdges
    // Perspective-correct weights: the edge functions times 1/w (`q`) are linear in screen
    // space; normalised, they weight the vertices. The origin is the first sample.
    let planes = box.planes(t)
    let state = shader.begin(t, vertices, planes)
    let count = box.width
    // A flat colour is encoded once for the whole triangle, and needs no batch.
    if let flat = shader.flatColor(state).map({ target.store.encode($0) }) {
      for py in minY...box.maxY {
        let (lo, hi) = coveredSpan(rowEdges &+ bias, step: stepX, count: count)
        if lo <= hi {
          let z0 = box.rowDepth(py)
          fillFlatSpan(
            flat, first: lo, count: hi &- lo &+ 1, z0: z0, dzdx: dzdx,
            depth: target.depth + py * target.depthWidth + minX, row: py * target.colorWidth + minX,
            store: target.store)
        }
        rowEdges = rowEdges &+ stepY
      }
      return
    }
    var batch = batch
    batch.planes = planes
    // Opaque triangles test four samples at a time (the common case: all four in front).
    let opaque = shader.isOpaque(t)
    var gathered = 0
    for py in minY...box.maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ bias, step: stepX, count: count)
      if lo <= hi {
        let z0 = box.rowDepth(py)
        let row = py * target.colorWidth + minX, depthRow = py * target.depthWidth + minX
        let dy = Float(py - minY)
        // Counters kept as the types they are stored in: Swift's conversions from Int are
        // checked, and SSE2 has no vector ones, so converting per sample cost more than the
        // rest of the gathering. The columns and colour indices of the next four samples step
        // as vectors (lane 0 is the next sample's): building them from scalars took eight
        // instructions a group.
        let lanes = SIMD4<Float>(0, 1, 2, 3), rowY = SIMD4<Float>(repeating: dy)
        var xs = Float(lo) + lanes
        var colorIndices = Int32(truncatingIfNeeded: row + lo) &+ SIMD4<Int32>(0, 1, 2, 3)
        var depthIndex = Int32(truncatingIfNeeded: depthRow + lo)
        var left = hi - lo + 1
        while left > 0 {
          var run = left
          if opaque {
            run = Swift.min(left, 4)
            if run == 4 {
              // The same depths as sample by sample: the same arithmetic per lane.
              let z = z0 + dzdx * xs
              let depth = target.depth + Int(depthIndex)
              if LaneMath.allLess(z, UnsafeRawPointer(depth).loadUnaligned(as: SIMD4<Float>.self)) {
                UnsafeMutableRawPointer(depth).storeBytes(of: z, as: SIMD4<Float>.self)
                if gathered > FragmentBatch.capacity - 4 {
                  shadeAndWrite(
                    batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
                  gathered = 0
                }
                batch.gatherFourOpaque(at: gathered, x: xs, y: rowY, colorIndices: colorIndices)
                gathered &+= 4
                (xs, colorIndices, depthIndex) = (xs + 4, colorIndices &+ 4, depthIndex &+ 4)
                left &-= 4
                continue
              }
            }
          }
          left &-= run
          for _ in 0..<run {
            let x = xs.x
            let z = z0 + dzdx * x
            if z < target.depth[Int(depthIndex)] {
              // Opaque samples take their place in depth now; the others once shaded.
              if opaque { target.depth[Int(depthIndex)] = z }
              if gathered == FragmentBatch.capacity {
                shadeAndWrite(
                  batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
                gathered = 0
              }
              batch.dx[gathered] = x
              batch.dy[gathered] = dy
              batch.z[gathered] = z
              batch.colorIndex[gathered] = colorIndices.x
              batch.depthIndex[gathered] = depthIndex
              gathered &+= 1
            }
            xs += 1
            colorIndices &+= 1
            depthIndex &+= 1
          }
        }
      }
      rowEdges = rowEdges &+ stepY
    }
    if gathered > 0 {
      shadeAndWrite(batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
    }
  }

  /// Writes the flat colour `flat` at the `count` samples of a row from column `first` on
  /// (offsets from `depth` and `row`) where depth `z0 + dzdx·x` is in front, and their depths.
  ///
  /// Four samples at a time, the same arithmetic per lane as one by one: a large triangle
  /// (a full-screen layer) spends its time here, and sample by sample the test branched on
  /// every pixel.
  @inline(__always)
  static func fillFlatSpan<Store: SampleStore>(
    _ flat: Store.Stored, first: Int, count: Int, z0: Float, dzdx: Float,
    depth: UnsafeMutablePointer<Float>, row: Int, store: Store
  ) {
    var i = first
    let end = first &+ count
    // Spans of small triangles are mostly shorter than four: they skip the vectors' set-up.
    if count >= 4 {
      var xs = Float(first) + SIMD4<Float>(0, 1, 2, 3)
      repeat {
        let z = z0 + dzdx * xs
        let old = UnsafeRawPointer(depth + i).loadUnaligned(as: SIMD4<Float>.self)
        // z < old, false for NaN as in the scalar test.
        let bits = LaneMath.signBits(LaneMath.greaterMask(old, z))
        if bits == 15 {
          UnsafeMutableRawPointer(depth + i).storeBytes(of: z, as: SIMD4<Float>.self)
          store.fill(flat, at: row &+ i, count: 4)
        } else if bits != 0 {
          for lane in 0..<4 where bits >> lane & 1 != 0 {
            depth[i &+ lane] = z[lane]
            store.write(flat, at: row &+ i &+ lane)
          }
        }
        xs += 4
        i &+= 4
      } while i &+ 4 <= end
    }
    while i < end {
      let z = z0 + dzdx * Float(i)
      if z < depth[i] {
        depth[i] = z
        store.write(flat, at: row &+ i)
      }
      i &+= 1
    }
  }

  /// Shades the first `count` samples of `batch` and writes them: depth (opaque samples), and
  /// colour, blended "over" what is there when translucent. `opaque`: the triangle is
  /// ``FragmentShader/isOpaque(_:)`` (its samples' depths are written already).
  @inline(__always)
  static func shadeAndWrite<Shader: FragmentShader, Store: SampleStore>(
    _ batch: FragmentBatch, count: Int, state: Shader.TriangleState, opaque: Bool, shader: Shader,
    target: TargetView<Store>
  ) {
    shader.shade(state, batch, count: count)
    if opaque {
      // Opaque: every colour is written (the depths were, when the samples were gathered).
      target.store.writeOpaque(batch.color, at: batch.colorIndex, count: count)
      return
    }
    for k in 0..<count {
      var color = batch.color[k]
      let index = Int(batch.colorIndex[k])
      if color.w < 1 {
        if color.w < 0 { continue }  // discarded
        // "Over" compositing for translucent surfaces, in linear light.
        let under = target.store.color(at: index), a = color.w
        color = SIMD4(
          SIMD3(color.x, color.y, color.z) * a + SIMD3(under.x, under.y, under.z) * (1 - a),
          a + under.w * (1 - a))
      }
      if color.w >= 0.999 { target.depth[Int(batch.depthIndex[k])] = batch.z[k] }  // opaque: write depth
      target.store.write(target.store.encode(color), at: index)
    }
  }

  /// The samples `lo...hi` (offsets from the row's first) where all three biased edge
  /// functions `e + i·step` are ≥ 0, among `0..<count`; empty when `lo > hi`.
  ///
  /// Each edge bounds the span on one side; the bound is a division, done only when the edge
  /// really crosses the row inside the span so far (rows in a triangle's interior need none).
  @inline(__always)
  static func coveredSpan(_ e: SIMD3<Int64>, step: SIMD3<Int64>, count: Int) -> (Int, Int) {
    // Narrow boxes (small triangles, the most common case in a dense mesh): testing each sample
    // costs less than the divisions (some 40 cycles each) and gives the same run, since a
    // triangle covers one contiguous run of a row.
    if count <= 8 {
      var lo = -1, hi = -2, edges = e
      for i in 0..<count {
        if edges.x | edges.y | edges.z >= 0 {  // all three ≥ 0: the sign bits are clear
          if lo < 0 { lo = i }
          hi = i
        } else if lo >= 0 {
          break
        }
        edges = edges &+ step
      }
      return lo < 0 ? (0, -1) : (lo, hi)
    }
    var lo: Int64 = 0, hi = Int64(count - 1)
    for k in 0..<3 {
      let ek = e[k], s = step[k]
      if s > 0 {
        // Rising along the row: covered from the first i with ek + i·s ≥ 0.
        if ek &+ s &* lo < 0 {
          if ek &+ s &* hi < 0 { return (0, -1) }
          lo = (s &- 1 &- ek) / s
        }
      } else if s < 0 {
        // Falling: covered up to the last i with ek + i·s ≥ 0.
        if ek &+ s &* lo < 0 { return (0, -1) }
        if ek &+ s &* hi < 0 { hi = ek / (0 &- s) }
      } else if ek < 0 {
        return (0, -1)
      }
    }
    return (Int(lo), Int(hi))
  }

  /// The unit face normal from the world positions by the counter-clockwise rule, in the
  /// file's winding (undoing setup's swap).
  @inline(__always)
  static func flatNormal(
    _ v: (VertexAttributes, VertexAttributes, VertexAttributes), swapped: Bool
  ) -> SIMD3<Float> {
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

  init(triangles: UnsafePointer<SetupTriangle>, binStart: UnsafePointer<Int32>, binned: UnsafePointer<Int32>)
  {
    (self.triangles, self.binStart, self.binned) = (triangles, binStart, binned)
  }

  /// Asks for the triangle binned eight after position `k` (before `end`, its bin's end):
  /// bins hold triangles from anywhere in memory.
  @inline(__always)
  func prefetch(after k: Int, end: Int) {
    guard k &+ 8 < end else { return }
    // A 112-byte record spans two or three cache lines: its first and last.
    let ahead = UnsafeRawPointer(triangles + Int(binned[k &+ 8]))
    arscene_prefetch(ahead)
    arscene_prefetch(ahead + MemoryLayout<SetupTriangle>.size - 1)
  }

  /// `batch`'s buffers, which it owns and does not grow while the frame is rasterized.
  init(_ batch: SetupBatch) {
    triangles = UnsafePointer(batch.triangles.base)
    binStart = UnsafePointer(batch.binStart.base)
    binned = UnsafePointer(batch.binnedTriangles.base)
  }
}
