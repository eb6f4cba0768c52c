/// A worker's record of the opaque triangles marked visible in its current tile (see
/// ``Renderer/markVisible(_:id:in:)``), by number.
///
/// Hidden surfaces are removed per tile before shading, as tile-based GPUs do: each opaque
/// triangle first only writes its depth and its number at the samples where it is in front,
/// and once the tile's opaque triangles are all marked, each sample is shaded once, for the
/// triangle left there. A dense model drawn without culling shades half again as many samples
/// immediately (back faces drawn before the front ones that hide them), and sets up shading
/// for every triangle it draws, hidden or not.
struct TileVisibility {
  /// The number a sample holds when no triangle is marked there.
  static let none: Int32 = -1

  /// The triangles marked, by number, each with its part in the tile (kept from marking, so
  /// that shading does not work it out again).
  private var triangles: UnsafeMutablePointer<(UnsafePointer<SetupTriangle>, TileTriangle)>
  private var capacity = 1024
  /// How many triangles are marked.
  private(set) var count = 0

  init() { triangles = .allocate(capacity: capacity) }

  func deallocate() { triangles.deallocate() }

  /// The triangle marked under number `j`, and its part in the tile.
  @inline(__always)
  subscript(j: Int) -> (triangle: UnsafePointer<SetupTriangle>, box: TileTriangle) { triangles[j] }

  /// Records `t`, whose part in the tile is `box`, as marked under number ``count``.
  @inline(__always)
  mutating func append(_ t: UnsafePointer<SetupTriangle>, box: TileTriangle) {
    if count == capacity {
      let moved = UnsafeMutablePointer<(UnsafePointer<SetupTriangle>, TileTriangle)>.allocate(
        capacity: 2 * capacity)
      moved.moveInitialize(from: triangles, count: count)
      triangles.deallocate()
      (triangles, capacity) = (moved, 2 * capacity)
    }
    (triangles + count).initialize(to: (t, box))
    count &+= 1
  }

  /// Forgets the marked triangles.
  mutating func removeAll() { count = 0 }
}

extension Renderer {
  /// Marks the samples of a triangle (its part in the tile being `box`) where it is in front: writes
  /// their depth, and `id` into `visible`, the tile's triangle-number buffer (indexed as
  /// `target.depth`). Returns whether it marked any sample.
  ///
  /// The samples covered and their depths are the ones
  /// ``drawTriangle(_:vertices:tileX:tileY:target:shader:batch:)`` finds, so the samples left
  /// marked are those it would have left drawn. Four samples at a time without a branch:
  /// lanes outside the triangle are written back unchanged, in the worker's own buffers (their
  /// padding covers the last row).
  @inline(__always)
  static func markVisible(
    _ box: TileTriangle, id: Int32,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int)
  ) -> Bool {
    var rowEdges = box.originEdges
    let ids = SIMD4<Int32>(repeating: id)
    let lanes = SIMD4<Float>(0, 1, 2, 3), laneIndices = SIMD4<Int32>(0, 1, 2, 3)
    var marked = SIMD4<Int32>.zero
    /// Marks the samples of mask `covered` among the four from column `column` of row `py`.
    @inline(__always) func mark(_ covered: SIMD4<Int32>, row py: Int, column: Int, z0: Float) -> SIMD4<Int32>
    {
      let offset = py &* target.width &+ box.minX &+ column
      let depth = UnsafeMutableRawPointer(target.depth + offset),
        visible = UnsafeMutableRawPointer(target.visible + offset)
      let z = z0 + box.dzdx * (Float(column) + lanes)
      let d = depth.loadUnaligned(as: SIMD4<Float>.self)
      let front = LaneMath.greaterMask(d, z) & covered
      depth.storeBytes(of: LaneMath.selected(z, d, where: front), as: SIMD4<Float>.self)
      let old = visible.loadUnaligned(as: SIMD4<Int32>.self)
      visible.storeBytes(of: LaneMath.selected(ids, old, where: front), as: SIMD4<Int32>.self)
      return front
    }
    if box.narrow {
      // Coverage tested per lane in 32 bits: no search for the row's run, no branch on it. The
      // edge functions of a row's first four samples step down the box in 32 bits too (exact:
      // every value they take is one of the box's).
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
      for py in box.minY...box.maxY {
        let z0 = SIMD4<Float>(repeating: box.rowDepth(py))
        var c0 = e0, c1 = e1, c2 = e2
        var column = 0, columns = lanes
        while column < columnCount {
          // Covered where all three are ≥ 0: the sign bit of their union is clear.
          let covered = ~LaneMath.shiftedRight(c0 | c1 | c2, 31) & LaneMath.greaterMask(width, columns)
          // `mark` written out: calling it here (with row pointers) cost two register moves a
          // step, in the frame's hottest loop.
          let depth = UnsafeMutableRawPointer(depthRow + column),
            visible = UnsafeMutableRawPointer(visibleRow + column)
          let z = z0 + dzdx * columns
          let d = depth.loadUnaligned(as: SIMD4<Float>.self)
          let front = LaneMath.greaterMask(d, z) & covered
          depth.storeBytes(of: LaneMath.selected(z, d, where: front), as: SIMD4<Float>.self)
          let old = visible.loadUnaligned(as: SIMD4<Int32>.self)
          visible.storeBytes(of: LaneMath.selected(ids, old, where: front), as: SIMD4<Int32>.self)
          marked |= front
          c0 = c0 &+ right0
          c1 = c1 &+ right1
          c2 = c2 &+ right2
          column &+= 4
          columns += 4
        }
        e0 = e0 &+ down0
        e1 = e1 &+ down1
        e2 = e2 &+ down2
        depthRow += target.width
        visibleRow += target.width
      }
      return LaneMath.anySet(marked)
    }
    let count = box.width
    for py in box.minY...box.maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ box.bias, step: box.stepX, count: count)
      if lo <= hi {
        let z0 = box.rowDepth(py)
        // The lanes inside the run: column ≤ hi.
        let last = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: hi))
        var column = lo, columns = laneIndices &+ Int32(truncatingIfNeeded: lo)
        while column <= hi {
          marked |= mark(~LaneMath.greaterMask(columns, last), row: py, column: column, z0: z0)
          (column, columns) = (column &+ 4, columns &+ 4)
        }
      }
      rowEdges = rowEdges &+ box.stepY
    }
    return LaneMath.anySet(marked)
  }

  /// Shades the samples `visibility` has marked in the tile (whose triangle numbers are in
  /// `visible`, indexed as `target.depth`), once each, for the triangle marked
  /// there, and writes their colours (their depths are written already); sets the numbers back
  /// to ``TileVisibility/none`` and forgets the triangles.
  ///
  /// Each triangle finds its samples in its own box (``MarkedSamples``), in the order it would
  /// have drawn them, with the same offsets: the same colours. A triangle left with no sample
  /// (all hidden by later ones) is not set up for shading at all.
  @inline(__always)
  static func shadeVisible<Shader: FragmentShader, Store: SampleStore>(
    _ visibility: inout TileVisibility, visible: UnsafeMutablePointer<Int32>, vertices: FrameVertices,
    target: TargetView<Store>, shader: Shader, batch: FragmentBatch
  ) {
    for j in 0..<visibility.count {
      let (triangle, box) = visibility[j]
      let t = triangle.pointee
      var samples = MarkedSamples(box, id: Int32(truncatingIfNeeded: j), visible: visible, target: target)
      var gathered = samples.gather(into: batch)
      guard gathered > 0 else { continue }
      var batch = batch
      let planes = box.planes(t)
      batch.planes = planes
      let state = shader.begin(t, vertices, planes)
      while gathered > 0 {
        shadeAndWrite(batch, count: gathered, state: state, opaque: true, shader: shader, target: target)
        gathered = samples.gather(into: batch)
      }
    }
    visibility.removeAll()
  }
}

/// The samples a triangle has left marked in a tile, found row by row in its box, four at a
/// time, and gathered into batches for shading; each one's mark is cleared as it is found.
struct MarkedSamples<Store: SampleStore> {
  private let box: TileTriangle
  /// The triangle's number, in every lane.
  private let id: SIMD4<Int32>
  private let visible: UnsafeMutablePointer<Int32>
  private let target: TargetView<Store>
  /// Where the search goes on: row, and column from the box's first.
  private var row: Int, column = 0

  init(_ box: TileTriangle, id: Int32, visible: UnsafeMutablePointer<Int32>, target: TargetView<Store>) {
    (self.box, self.id, self.visible, self.target) = (box, SIMD4(repeating: id), visible, target)
    row = box.minY
  }

  /// Gathers the next samples (up to a batch) into `batch`: their offsets from the box's first
  /// sample and their colour indices. Returns how many; 0 when there are no more.
  @inline(__always)
  mutating func gather(into batch: FragmentBatch) -> Int {
    let lanes = SIMD4<Float>(0, 1, 2, 3), laneIndices = SIMD4<Int32>(0, 1, 2, 3)
    let none = SIMD4<Int32>(repeating: TileVisibility.none)
    let width = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: box.width))
    var gathered = 0
    while row <= box.maxY {
      let numbers = UnsafeMutableRawPointer(visible + (row &* target.depthWidth &+ box.minX))
      let colorRow = Int32(truncatingIfNeeded: row &* target.colorWidth &+ box.minX)
      let dy = Float(row &- box.minY)
      var columns = laneIndices &+ Int32(truncatingIfNeeded: column)
      while column < box.width {
        if gathered > FragmentBatch.capacity - 4 { return gathered }
        let marked = numbers.loadUnaligned(fromByteOffset: 4 &* column, as: SIMD4<Int32>.self)
        let mine = LaneMath.equalMask(marked, id) & LaneMath.greaterMask(width, columns)
        let bits = LaneMath.signBits(mine)
        if bits != 0 {
          numbers.storeBytes(
            of: LaneMath.selected(none, marked, where: mine), toByteOffset: 4 &* column, as: SIMD4<Int32>.self
          )
          let x = Float(column), colorIndex = colorRow &+ Int32(truncatingIfNeeded: column)
          if bits == 15 {
            batch.gatherFourOpaque(at: gathered, x: x + lanes, y: dy, colorIndex: colorIndex)
            gathered &+= 4
          } else {
            // The lanes that are this triangle's, in order: each written, kept if it is.
            for lane in 0..<4 {
              batch.dx[gathered] = x + Float(lane)
              batch.dy[gathered] = dy
              batch.colorIndex[gathered] = colorIndex &+ Int32(truncatingIfNeeded: lane)
              gathered &+= Int(truncatingIfNeeded: (bits >> lane) & 1)
            }
          }
        }
        column &+= 4
        columns &+= 4
      }
      (row, column) = (row &+ 1, 0)
    }
    return gathered
  }
}
