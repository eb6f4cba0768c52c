import ARMath

extension Renderer {
  /// Covers the sample centres of `t` inside the tile: per row, the run the three edge
  /// functions allow (found exactly as testing every sample would, fill rule included), then
  /// the depth test. One of three ways, by what the shader makes of the triangle:
  ///
  /// 1. A flat colour (``drawFlatTriangle(_:_:target:)``): encoded once, and written span by
  ///    span, four samples at a time, where they are in front.
  /// 2. Opaque and shaded: the samples in front are gathered into `batch` four at a time where
  ///    all four are (``gatherFourOpaque(_:z:_:into:gathered:)``), one by one elsewhere, and
  ///    shaded together (perspective-correct attributes, textures, lights), then written.
  /// 3. Translucent or cut out: gathered one by one (``gatherSample(_:z0:dzdx:_:into:gathered:opaque:)``),
  ///    shaded, and blended over what is there.
  @inline(__always)
  static func drawTriangle<Shader: FragmentShader, Store: SampleStore>(
    _ t: SetupTriangle, vertices: FrameVertices, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>,
    target: TargetView<Store>, shader: Shader, batch: FragmentBatch
  ) {
    guard let box = TileTriangle(t, tileX: tileX, tileY: tileY) else { return }
    // Perspective-correct weights: the edge functions times 1/w (`q`) are linear in screen
    // space; normalised, they weight the vertices. The origin is the first sample.
    let planes = box.planes(t)
    let state = shader.begin(t, vertices, planes)
    if let flat = shader.flatColor(state).map({ target.store.encode($0) }) {
      drawFlatTriangle(flat, box, target: target)
      return
    }
    var batch = batch
    batch.planes = planes
    let opaque = shader.isOpaque(t)
    var gathered = 0
    var rowEdges = box.originEdges
    for py in box.minY...box.maxY {
      defer { rowEdges = rowEdges &+ box.stepY }
      let (lo, hi) = coveredSpan(rowEdges &+ box.bias, step: box.stepX, count: box.width)
      guard lo <= hi else { continue }
      let z0 = box.rowDepth(py)
      var cursor = SampleCursor(
        first: lo, row: py * target.colorWidth + box.minX, depthRow: py * target.depthWidth + box.minX,
        dy: Float(py - box.minY))
      var left = hi - lo + 1
      while left > 0 {
        // Opaque triangles test four samples at a time (the common case: all four in front).
        if opaque && left >= 4 {
          if gathered > FragmentBatch.capacity - 4 {
            shadeAndWrite(
              batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
            gathered = 0
          }
          if gatherFourOpaque(&cursor, z: z0 + box.dzdx * cursor.xs, target, into: batch, gathered: &gathered)
          {
            left &-= 4
            continue
          }
        }
        // One by one: up to four samples of an opaque run, or the rest of the row.
        let run = opaque ? Swift.min(left, 4) : left
        for _ in 0..<run {
          if gathered == FragmentBatch.capacity {
            shadeAndWrite(
              batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
            gathered = 0
          }
          gatherSample(
            &cursor, z0: z0, dzdx: box.dzdx, target, into: batch, gathered: &gathered, opaque: opaque)
        }
        left &-= run
      }
    }
    if gathered > 0 {
      shadeAndWrite(batch, count: gathered, state: state, opaque: opaque, shader: shader, target: target)
    }
  }

  /// The next samples of a row as ``drawTriangle(_:vertices:tileX:tileY:target:shader:batch:)``
  /// walks it: columns and indices kept as the types they are stored in (Swift's conversions
  /// from `Int` are checked, and SSE2 has no vector ones, so converting per sample cost more
  /// than the rest of the gathering), the next four as vectors (lane 0 the next sample's):
  /// building them from scalars took eight instructions a group.
  struct SampleCursor {
    /// The next four samples' columns from the triangle box's left edge.
    var xs: SIMD4<Float>
    /// Their colour indices.
    var colorIndices: SIMD4<Int32>
    /// The next sample's depth index.
    var depthIndex: Int32
    /// The row's offset from the box's top edge.
    let dy: SIMD4<Float>

    @inline(__always)
    init(first: Int, row: Int, depthRow: Int, dy: Float) {
      xs = Float(first) + SIMD4<Float>(0, 1, 2, 3)
      colorIndices = Int32(truncatingIfNeeded: row + first) &+ SIMD4<Int32>(0, 1, 2, 3)
      depthIndex = Int32(truncatingIfNeeded: depthRow + first)
      self.dy = SIMD4(repeating: dy)
    }

    @inline(__always)
    mutating func advance(by n: Int32) {
      xs += Float(n)
      colorIndices &+= n
      depthIndex &+= n
    }
  }

  /// Gathers the cursor's next four samples into `batch` (room for four more) if all four are
  /// in front (depths `z`, the same arithmetic per lane as one by one), writing their depths;
  /// false, with nothing done, if any is not.
  @inline(__always)
  static func gatherFourOpaque<Store: SampleStore>(
    _ cursor: inout SampleCursor, z: SIMD4<Float>, _ target: TargetView<Store>, into batch: FragmentBatch,
    gathered: inout Int
  ) -> Bool {
    let depth = target.depth + Int(cursor.depthIndex)
    guard LaneMath.allLess(z, UnsafeRawPointer(depth).loadUnaligned(as: SIMD4<Float>.self)) else {
      return false
    }
    UnsafeMutableRawPointer(depth).storeBytes(of: z, as: SIMD4<Float>.self)
    batch.gatherFourOpaque(at: gathered, x: cursor.xs, y: cursor.dy, colorIndices: cursor.colorIndices)
    gathered &+= 4
    cursor.advance(by: 4)
    return true
  }

  /// Gathers the cursor's next sample into `batch` (room for one more) if it is in front
  /// (depth `z0 + dzdx·x`); an opaque sample takes its place in depth now, the others once
  /// shaded.
  @inline(__always)
  static func gatherSample<Store: SampleStore>(
    _ cursor: inout SampleCursor, z0: Float, dzdx: Float, _ target: TargetView<Store>,
    into batch: FragmentBatch, gathered: inout Int, opaque: Bool
  ) {
    let x = cursor.xs.x
    let z = z0 + dzdx * x
    if z < target.depth[Int(cursor.depthIndex)] {
      if opaque { target.depth[Int(cursor.depthIndex)] = z }
      batch.dx[gathered] = x
      batch.dy[gathered] = cursor.dy.x
      batch.z[gathered] = z
      batch.colorIndex[gathered] = cursor.colorIndices.x
      batch.depthIndex[gathered] = cursor.depthIndex
      gathered &+= 1
    }
    cursor.advance(by: 1)
  }

  /// Writes the flat colour `flat` (encoded as the store stores it) at the box's covered
  /// samples in front, span by span.
  @inline(__always)
  static func drawFlatTriangle<Store: SampleStore>(
    _ flat: Store.Stored, _ box: TileTriangle, target: TargetView<Store>
  ) {
    var rowEdges = box.originEdges
    for py in box.minY...box.maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ box.bias, step: box.stepX, count: box.width)
      if lo <= hi {
        fillFlatSpan(
          flat, first: lo, count: hi &- lo &+ 1, z0: box.rowDepth(py), dzdx: box.dzdx,
          depth: target.depth + py * target.depthWidth + box.minX, row: py * target.colorWidth + box.minX,
          store: target.store)
      }
      rowEdges = rowEdges &+ box.stepY
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

}
