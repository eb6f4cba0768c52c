import ARMath

extension Renderer {
  /// Marks the samples of a triangle (its part in the tile being `box`) where it is in front: writes
  /// their depth, and `id` into `visible`, the tile's triangle-number buffer (indexed as
  /// `target.depth`). Returns whether it marked any sample. `ties`: how to
  /// settle equal depths when the triangle is marked out of draw order (see
  /// ``MarkingOrder``); nil, the sample keeps the triangle marked first, as in draw order.
  ///
  /// The samples covered and their depths are the ones
  /// ``drawTriangle(_:vertices:tileX:tileY:target:shader:batch:)`` finds, so the samples left
  /// marked are those it would have left drawn. Four samples at a time without a branch:
  /// lanes outside the triangle are written back unchanged, in the worker's own buffers (their
  /// padding covers the last row).
  @inline(__always)
  static func markVisible(
    _ box: TileTriangle, id: Int32,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int),
    ties: DepthTies?
  ) -> Bool {
    box.narrow
      ? markVisibleNarrow(box, id: id, in: target, ties: ties)
      : markVisibleRuns(box, id: id, in: target, ties: ties)
  }

  /// Marks the samples of mask `covered` among the four at `depth` and `visible`, whose depths
  /// are `z`, where they are in front (with `id`, settling equal depths by `ties`); returns those.
  @inline(__always)
  static func markFour(
    _ covered: SIMD4<Int32>, z: SIMD4<Float>, depth: UnsafeMutableRawPointer,
    visible: UnsafeMutableRawPointer,
    id ids: SIMD4<Int32>, ties: DepthTies?
  ) -> SIMD4<Int32> {
    let d = depth.loadUnaligned(as: SIMD4<Float>.self)
    let old = visible.loadUnaligned(as: SIMD4<Int32>.self)
    var front = LaneMath.greaterMask(d, z) & covered
    if let ties { front |= ties.won(LaneMath.equalMask(d, z) & covered, from: old) }
    depth.storeBytes(of: LaneMath.selected(z, d, where: front), as: SIMD4<Float>.self)
    visible.storeBytes(of: LaneMath.selected(ids, old, where: front), as: SIMD4<Int32>.self)
    return front
  }

  /// ``markVisible(_:id:in:ties:)`` for a narrow box: coverage tested per lane in 32 bits, no
  /// search for the row's run, no branch on it. The edge functions of a row's first four
  /// samples step down the box in 32 bits too (exact: every value they take is one of the box's).
  @inline(__always)
  static func markVisibleNarrow(
    _ box: TileTriangle, id: Int32,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int),
    ties: DepthTies?
  ) -> Bool {
    let ids = SIMD4<Int32>(repeating: id)
    let lanes = SIMD4<Float>(0, 1, 2, 3)
    var marked = SIMD4<Int32>.zero
    let rows = box.narrowRows()
    var (e0, e1, e2) = rows.first
    let (down0, down1, down2) = rows.down
    let (right0, right1, right2) = rows.right
    let columnCount = box.width
    // Lanes past the box (columns ≥ its width) are masked out, by a float compare: exact for
    // these small integers, and one register fewer than counting columns in integers.
    let width = SIMD4<Float>(repeating: Float(columnCount))
    let dzdx = SIMD4<Float>(repeating: box.dzdx)
    var depthRow = target.depth + (box.minY &* target.width &+ box.minX)
    var visibleRow = target.visible + (box.minY &* target.width &+ box.minX)
    /// Marks the four samples from `column` of the row at `depthRow`/`visibleRow`, whose
    /// edge functions are `c0`, `c1`, `c2` and first depth `z0`.
    @inline(__always) func markGroup(
      _ c0: SIMD4<Int32>, _ c1: SIMD4<Int32>, _ c2: SIMD4<Int32>, column: Int, columns: SIMD4<Float>,
      z0: SIMD4<Float>
    ) {
      // Covered where all three are ≥ 0: the sign bit of their union is clear.
      let covered = ~LaneMath.shiftedRight(c0 | c1 | c2, 31) & LaneMath.greaterMask(width, columns)
      marked |= markFour(
        covered, z: z0 + dzdx * columns, depth: UnsafeMutableRawPointer(depthRow + column),
        visible: UnsafeMutableRawPointer(visibleRow + column), id: ids, ties: ties)
    }
    /// Steps the edge functions and the rows down one row.
    @inline(__always) func nextRow() {
      (e0, e1, e2) = (e0 &+ down0, e1 &+ down1, e2 &+ down2)
      (depthRow, visibleRow) = (depthRow + target.width, visibleRow + target.width)
    }
    // Boxes at most eight samples wide (most of a dense mesh's) mark a row in one or two
    // groups, without a loop along it whose exit went either way from one triangle to the
    // next.
    if columnCount <= 4 {
      for py in box.minY...box.maxY {
        markGroup(e0, e1, e2, column: 0, columns: lanes, z0: SIMD4(repeating: box.rowDepth(py)))
        nextRow()
      }
      return LaneMath.anySet(marked)
    }
    if columnCount <= 8 {
      for py in box.minY...box.maxY {
        let z0 = SIMD4<Float>(repeating: box.rowDepth(py))
        markGroup(e0, e1, e2, column: 0, columns: lanes, z0: z0)
        markGroup(e0 &+ right0, e1 &+ right1, e2 &+ right2, column: 4, columns: lanes + 4, z0: z0)
        nextRow()
      }
      return LaneMath.anySet(marked)
    }
    for py in box.minY...box.maxY {
      let z0 = SIMD4<Float>(repeating: box.rowDepth(py))
      var c0 = e0, c1 = e1, c2 = e2
      var column = 0, columns = lanes
      while column < columnCount {
        markGroup(c0, c1, c2, column: column, columns: columns, z0: z0)
        c0 = c0 &+ right0
        c1 = c1 &+ right1
        c2 = c2 &+ right2
        column &+= 4
        columns += 4
      }
      nextRow()
    }
    return LaneMath.anySet(marked)
  }

  /// ``markVisible(_:id:in:ties:)`` for a wide box: each row's covered run found by its edge
  /// functions in 64 bits, then marked four samples at a time.
  @inline(__always)
  static func markVisibleRuns(
    _ box: TileTriangle, id: Int32,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int),
    ties: DepthTies?
  ) -> Bool {
    let ids = SIMD4<Int32>(repeating: id)
    let lanes = SIMD4<Float>(0, 1, 2, 3), laneIndices = SIMD4<Int32>(0, 1, 2, 3)
    var marked = SIMD4<Int32>.zero
    var rowEdges = box.originEdges
    let count = box.width
    for py in box.minY...box.maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ box.bias, step: box.stepX, count: count)
      if lo <= hi {
        let z0 = box.rowDepth(py)
        // The lanes inside the run: column ≤ hi.
        let last = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: hi))
        var column = lo, columns = laneIndices &+ Int32(truncatingIfNeeded: lo)
        while column <= hi {
          let offset = py &* target.width &+ box.minX &+ column
          marked |= markFour(
            ~LaneMath.greaterMask(columns, last), z: z0 + box.dzdx * (Float(column) + lanes),
            depth: UnsafeMutableRawPointer(target.depth + offset),
            visible: UnsafeMutableRawPointer(target.visible + offset), id: ids, ties: ties)
          (column, columns) = (column &+ 4, columns &+ 4)
        }
      }
      rowEdges = rowEdges &+ box.stepY
    }
    return LaneMath.anySet(marked)
  }

  /// Marks opaque triangle `t`, of rank `rank` in draw order, in the tile `tileX × tileY` where
  /// it is in front, and records it in `visibility` when it is anywhere (see
  /// ``markVisible(_:id:in:ties:)``).
  @inline(__always)
  static func markOpaque(
    _ t: UnsafePointer<SetupTriangle>, rank: Int32, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int),
    visibility: inout TileVisibility, hiddenTest: inout HiddenTriangleTest, ties: DepthTies?
  ) {
    let triangle = t.pointee
    // Tested before its part in the tile is worked out: that costs more than the test.
    if hiddenTest.shouldTest(backFacing: triangle.backFacing),
      isHidden(triangle, tileX: tileX, tileY: tileY, in: (target.depth, target.width), strictly: ties != nil)
    {
      return hiddenTest.record(marked: false, backFacing: triangle.backFacing)
    }
    guard let box = TileTriangle(triangle, tileX: tileX, tileY: tileY) else { return }
    let id = Int32(truncatingIfNeeded: visibility.count)
    let marked = markVisible(box, id: id, in: target, ties: ties)
    hiddenTest.record(marked: marked, backFacing: triangle.backFacing)
    if marked { visibility.append(t, box: box, rank: rank) }
  }

  /// Whether triangle `t` is hidden everywhere in the tile `tileX × tileY` (a back face behind
  /// the front of its mesh): every depth in its box there is nearer than its nearest sample can
  /// be (``SetupTriangle/nearest``), or as near when `strictly` is false (ties go to the
  /// triangle marked first). Reading the depths costs a quarter of marking them, and less than
  /// working out the triangle's part in the tile; lanes past the box only make the test
  /// stricter. A row that has a depth beyond ends it.
  @inline(__always)
  static func isHidden(
    _ t: SetupTriangle, tileX: ClosedRange<Int>, tileY: ClosedRange<Int>,
    in target: (depth: UnsafeMutablePointer<Float>, width: Int), strictly: Bool
  ) -> Bool {
    let minX = Swift.max(Int(t.minX), tileX.lowerBound), maxX = Swift.min(Int(t.maxX), tileX.upperBound)
    let minY = Swift.max(Int(t.minY), tileY.lowerBound), maxY = Swift.min(Int(t.maxY), tileY.upperBound)
    guard minX <= maxX, minY <= maxY else { return false }
    let nearest = SIMD4<Float>(repeating: t.nearest)
    let columnCount = maxX &- minX &+ 1
    var row = target.depth + (minY &* target.width &+ minX)
    @inline(__always) func four(_ column: Int) -> SIMD4<Float> {
      UnsafeRawPointer(row + column).loadUnaligned(as: SIMD4<Float>.self)
    }
    for _ in minY...maxY {
      // Boxes at most eight samples wide (most of a dense mesh's) read their rows in one or two
      // loads, without a loop whose exit went either way from one triangle to the next.
      var farthest: SIMD4<Float>
      if columnCount <= 4 {
        farthest = four(0)
      } else if columnCount <= 8 {
        farthest = LaneMath.larger(four(0), four(4))
      } else {
        farthest = four(0)
        var column = 4
        while column < columnCount {
          farthest = LaneMath.larger(farthest, four(column))
          column &+= 4
        }
      }
      let beyond =
        strictly ? ~LaneMath.greaterMask(nearest, farthest) : LaneMath.greaterMask(farthest, nearest)
      if LaneMath.anySet(beyond) { return false }
      row += target.width
    }
    return true
  }

  /// Shades the samples `visibility` has marked in the tile (whose triangle numbers are in
  /// `visible`, indexed as `target.depth`), once each, for the triangle marked
  /// there, and writes their colours (their depths are written already); sets the numbers back
  /// to ``TileVisibility/none`` and forgets the triangles.
  ///
  /// Each triangle's samples come in the order it would have drawn them, with the same offsets
  /// from its box: the same colours. A triangle left with no sample (all hidden by later ones)
  /// is not set up for shading at all.
  @inline(__always)
  static func shadeVisible<Shader: FragmentShader, Store: SampleStore>(
    _ visibility: inout TileVisibility, visible: UnsafeMutablePointer<Int32>, vertices: FrameVertices,
    target: TargetView<Store>, shader: Shader, batch: FragmentBatch
  ) {
    visibility.sortSamples(visible: visible, depthWidth: target.depthWidth, colorWidth: target.colorWidth)
    for j in 0..<visibility.count {
      let (first, count) = visibility.samples(of: j)
      guard count > 0 else { continue }
      let (triangle, box) = visibility[j]
      var batch = batch
      let planes = box.planes(triangle.pointee)
      batch.planes = planes
      let state = shader.begin(triangle.pointee, vertices, planes)
      // A batch at a time, read where the list lies.
      for k in stride(from: first, to: first &+ count, by: FragmentBatch.capacity) {
        shadeAndWrite(
          batch.reading(dx: visibility.dx + k, dy: visibility.dy + k, colorIndex: visibility.colorIndex + k),
          count: Swift.min(FragmentBatch.capacity, first &+ count &- k), state: state, opaque: true,
          shader: shader, target: target)
      }
    }
    visibility.removeAll()
  }
}
