/// A worker's record of the opaque triangles marked visible in its current tile (see
/// ``Renderer/markVisible(_:_:id:in:)``), and the scratch that sorts their samples for shading.
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

  /// The triangles marked, by number.
  private var triangles: UnsafeMutablePointer<UnsafePointer<SetupTriangle>>
  private var capacity: Int
  /// Per triangle number, where its samples start in `samples` (one more entry than
  /// triangles: the end).
  private var starts: UnsafeMutablePointer<Int32>
  /// The tile's marked samples grouped by triangle, each as its tile-local `row << 8 | column`.
  private let samples: UnsafeMutablePointer<UInt16>
  /// How many triangles are marked.
  private(set) var count = 0
  /// The box around the marked triangles' boxes (frame sample coordinates, inclusive).
  private var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min

  /// Scratch for tiles of `tileSize` samples a side (at most 256).
  init(tileSize: Int) {
    capacity = 1024
    triangles = .allocate(capacity: capacity)
    starts = .allocate(capacity: capacity + 1)
    samples = .allocate(capacity: tileSize * tileSize)
  }

  func deallocate() {
    triangles.deallocate()
    starts.deallocate()
    samples.deallocate()
  }

  /// Records `t` (whose part in the tile is `box`) as marked under number ``count``.
  @inline(__always)
  mutating func append(_ t: UnsafePointer<SetupTriangle>, _ box: TileTriangle) {
    if count == capacity { grow() }
    triangles[count] = t
    count &+= 1
    (minX, maxX) = (Swift.min(minX, box.minX), Swift.max(maxX, box.maxX))
    (minY, maxY) = (Swift.min(minY, box.minY), Swift.max(maxY, box.maxY))
  }

  private mutating func grow() {
    let larger = capacity * 2
    let moved = UnsafeMutablePointer<UnsafePointer<SetupTriangle>>.allocate(capacity: larger)
    moved.moveInitialize(from: triangles, count: count)
    triangles.deallocate()
    starts.deallocate()
    (triangles, starts, capacity) = (moved, .allocate(capacity: larger + 1), larger)
  }

  /// Groups the samples of the tile at `(x0, y0)` by the triangle marked at each in `visible`
  /// (indexed by frame sample coordinates, `width` a row), setting them back to ``none``, then
  /// calls `body` with each triangle that has samples and their range in `samples`. Forgets
  /// the marked triangles.
  @inline(__always)
  mutating func forEachVisible(
    x0: Int, y0: Int, visible: UnsafeMutablePointer<Int32>, width: Int,
    _ body: (UnsafePointer<SetupTriangle>, UnsafePointer<UInt16>, Int) -> Void
  ) {
    // A counting sort: samples per triangle, where each triangle's run starts, the samples.
    starts.initialize(repeating: 0, count: count + 1)
    for y in minY...maxY {
      let row = visible + y * width
      for x in minX...maxX where row[x] != Self.none { starts[Int(row[x]) + 1] &+= 1 }
    }
    for j in 0..<count { starts[j + 1] &+= starts[j] }
    for y in minY...maxY {
      let row = visible + y * width
      let local = UInt16(truncatingIfNeeded: (y - y0) << 8 - x0)
      for x in minX...maxX where row[x] != Self.none {
        let j = Int(row[x])
        samples[Int(starts[j])] = local &+ UInt16(truncatingIfNeeded: x)
        starts[j] &+= 1
        row[x] = Self.none
      }
    }
    // `starts[j]` is now where triangle j's samples end, and the next one's start.
    var start: Int32 = 0
    for j in 0..<count where starts[j] > start {
      body(triangles[j], samples + Int(start), Int(starts[j] - start))
      start = starts[j]
    }
    count = 0
    (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
  }
}

extension Renderer {
  /// Marks the samples of `t` (its part in the tile being `box`) where it is in front: writes
  /// their depth, and `id` into `visible`, the tile's triangle-number buffer (indexed as
  /// `target.depth`). Returns whether it marked any sample.
  ///
  /// The rows' runs and depths are the ones ``drawTriangle(_:vertices:tileX:tileY:target:shader:batch:)``
  /// finds, so the samples left marked are those it would have left drawn. Four samples at a
  /// time without a branch: lanes past the run are written back unchanged, in the worker's own
  /// buffers (their padding covers the last row).
  @inline(__always)
  static func markVisible(
    _ t: SetupTriangle, _ box: TileTriangle, id: Int32,
    in target: (depth: UnsafeMutablePointer<Float>, visible: UnsafeMutablePointer<Int32>, width: Int)
  ) -> Bool {
    var rowEdges = box.originEdges
    let (stepX, stepY, bias, dzdx) = (box.stepX, box.stepY, box.bias, box.dzdx)
    let count = box.width
    let ids = SIMD4<Int32>(repeating: id)
    let lanes = SIMD4<Float>(0, 1, 2, 3), laneIndices = SIMD4<Int32>(0, 1, 2, 3)
    var marked = SIMD4<Int32>.zero
    for py in box.minY...box.maxY {
      let (lo, hi) = coveredSpan(rowEdges &+ bias, step: stepX, count: count)
      if lo <= hi {
        let z0 = box.rowDepth(rowEdges, at: lo)
        let offset = py * target.width + box.minX + lo
        let depth = UnsafeMutableRawPointer(target.depth + offset),
          visible = UnsafeMutableRawPointer(target.visible + offset)
        // The lanes inside the run: index < run length.
        let run = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: hi - lo + 1))
        var i: Float = 0, g = 0, inRun = laneIndices
        while g <= hi - lo {
          let z = z0 + dzdx * (i + lanes)
          let d = depth.loadUnaligned(fromByteOffset: 4 * g, as: SIMD4<Float>.self)
          let front = LaneMath.greaterMask(d, z) & LaneMath.greaterMask(run, inRun)
          depth.storeBytes(
            of: LaneMath.selected(z, d, where: front), toByteOffset: 4 * g, as: SIMD4<Float>.self)
          let old = visible.loadUnaligned(fromByteOffset: 4 * g, as: SIMD4<Int32>.self)
          visible.storeBytes(
            of: LaneMath.selected(ids, old, where: front), toByteOffset: 4 * g, as: SIMD4<Int32>.self)
          marked |= front
          (i, g, inRun) = (i + 4, g &+ 4, inRun &+ 4)
        }
      }
      rowEdges = rowEdges &+ stepY
    }
    return LaneMath.anySet(marked)
  }

  /// Shades the samples `visibility` has marked in the tile at `(tileX, tileY)` (whose triangle
  /// numbers are in `visible`), once each, for the triangle marked there, and writes their
  /// colours; their depths are written already.
  @inline(__always)
  static func shadeVisible<Shader: FragmentShader, Store: SampleStore>(
    _ visibility: inout TileVisibility, visible: UnsafeMutablePointer<Int32>, vertices: FrameVertices,
    tileX: ClosedRange<Int>, tileY: ClosedRange<Int>, target: TargetView<Store>, shader: Shader,
    batch: FragmentBatch
  ) {
    let (x0, y0) = (tileX.lowerBound, tileY.lowerBound)
    visibility.forEachVisible(x0: x0, y0: y0, visible: visible, width: target.depthWidth) {
      triangle, samples, count in
      let t = triangle.pointee
      // The same box, planes and sample offsets as when drawn at once: the same colours.
      let box = TileTriangle(t, tileX: tileX, tileY: tileY).unsafelyUnwrapped
      let planes = box.planes(t)
      let state = shader.begin(t, vertices, planes)
      var batch = batch
      batch.planes = planes
      var gathered = 0
      for k in 0..<count {
        if gathered == FragmentBatch.capacity {
          shadeAndWrite(batch, count: gathered, state: state, opaque: true, shader: shader, target: target)
          gathered = 0
        }
        let x = x0 &+ Int(samples[k] & 255), y = y0 &+ Int(samples[k] >> 8)
        batch.dx[gathered] = Float(x &- box.minX)
        batch.dy[gathered] = Float(y &- box.minY)
        batch.colorIndex[gathered] = Int32(truncatingIfNeeded: y &* target.colorWidth &+ x)
        gathered &+= 1
      }
      shadeAndWrite(batch, count: gathered, state: state, opaque: true, shader: shader, target: target)
    }
  }
}
