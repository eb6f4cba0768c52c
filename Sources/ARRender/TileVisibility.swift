import ARMath

/// A worker's record of the opaque triangles marked visible in its current tile (see
/// ``Renderer/markVisible(_:id:in:ties:)``), by number, and, once they are all marked, of the
/// samples each one is left with.
///
/// Hidden surfaces are removed per tile before shading, as tile-based GPUs do: each opaque
/// triangle first only writes its depth and its number at the samples where it is in front,
/// and once the tile's opaque triangles are all marked, each sample is shaded once, for the
/// triangle left there. A dense model drawn without culling shades half again as many samples
/// immediately (back faces drawn before the front ones that hide them), and sets up shading
/// for every triangle it draws, hidden or not.
///
/// The samples left are sorted by triangle in one sweep of the tile's numbers, not found by
/// searching each triangle's box: boxes overlap, and triangles marked early may be hidden
/// everywhere by the end, their boxes searched for nothing (in a 100k-triangle sphere marked
/// in its own order, more than half of those marked; ``MarkingOrder`` now marks its near faces
/// first, but other scenes overlap in other ways). Each triangle's list has room for every
/// sample of its box: no pass to count what is left. (Counting the samples marked instead cost
/// the marking loop a register it does not have.)
struct TileVisibility {
  /// The number a sample holds when no triangle is marked there.
  static let none: Int32 = -1

  /// The triangles marked, by number, each with its part in the tile (kept from marking, so
  /// that shading does not work it out again).
  private var triangles: UnsafeMutablePointer<(UnsafePointer<SetupTriangle>, TileTriangle)>
  /// The marked triangles' ranks in draw order, by number (see ``DepthTies``).
  private var rankStorage: UnsafeMutablePointer<Int32>
  /// Per triangle, from number −1 (``none``: a slot the sweep may write without a branch
  /// before its first triangle), its list.
  private var lists: UnsafeMutablePointer<SampleList>
  private var capacity = 1024
  /// How many triangles are marked.
  private(set) var count = 0
  /// Where the next triangle's list starts: the lists' entries so far.
  private var listed = 0
  /// The union of the marked triangles' boxes (frame sample coordinates): no sample outside
  /// it is marked.
  private var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min

  /// Every triangle's samples, one list after another, each starting at a multiple of four
  /// (16-byte aligned, as ``FragmentBatch`` reads them): their offsets from the triangle's box's
  /// first sample, and their colour indices. Each list is padded to a multiple of four with
  /// finite values (the four-wide passes read them).
  private(set) var dx: UnsafeMutablePointer<Float>, dy: UnsafeMutablePointer<Float>
  private(set) var colorIndex: UnsafeMutablePointer<Int32>
  private var listCapacity = 0

  init() {
    triangles = .allocate(capacity: capacity)
    rankStorage = .allocate(capacity: capacity)
    lists = Self.allocateLists(capacity)
    (dx, dy, colorIndex) = (Self.allocateEntries(0), Self.allocateEntries(0), Self.allocateEntries(0))
  }

  func deallocate() {
    triangles.deallocate()
    rankStorage.deallocate()
    (lists - 1).deallocate()
    dx.deallocate()
    dy.deallocate()
    colorIndex.deallocate()
  }

  /// Where a triangle's samples are listed.
  private struct SampleList {
    /// Where its list starts, and the end of what has been placed in it.
    var start: Int32 = 0, cursor: Int32 = 0
    /// Its box's first sample.
    var origin = SIMD2<Int32>.zero
  }

  /// Lists for `capacity` triangles, from number −1.
  private static func allocateLists(_ capacity: Int) -> UnsafeMutablePointer<SampleList> {
    let lists = UnsafeMutablePointer<SampleList>.allocate(capacity: capacity + 1)
    lists.initialize(repeating: SampleList(), count: capacity + 1)
    return lists + 1
  }

  /// `count` list entries, 16-byte aligned.
  private static func allocateEntries<T>(_ count: Int) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<T>.stride, alignment: 16)
      .bindMemory(to: T.self, capacity: count)
  }

  /// The triangle marked under number `j`, and its part in the tile.
  @inline(__always)
  subscript(j: Int) -> (triangle: UnsafePointer<SetupTriangle>, box: TileTriangle) { triangles[j] }

  /// The marked triangles' ranks in draw order, by number.
  var ranks: UnsafePointer<Int32> { UnsafePointer(rankStorage) }

  /// Records `t`, whose part in the tile is `box` and whose rank in draw order is `rank`, as
  /// marked under number ``count``.
  @inline(__always)
  mutating func append(_ t: UnsafePointer<SetupTriangle>, box: TileTriangle, rank: Int32) {
    if count == capacity { grow() }
    (triangles + count).initialize(to: (t, box))
    rankStorage[count] = rank
    let start = Int32(truncatingIfNeeded: listed)
    lists[count] = SampleList(
      start: start, cursor: start,
      origin: SIMD2(Int32(truncatingIfNeeded: box.minX), Int32(truncatingIfNeeded: box.minY)))
    // Room for the box's samples, and three more: a run's four are written together, lanes
    // past its end included.
    listed &+= (box.width &* (box.maxY &- box.minY &+ 1) &+ 6) & ~3
    count &+= 1
    (minX, maxX) = (Swift.min(minX, box.minX), Swift.max(maxX, box.maxX))
    (minY, maxY) = (Swift.min(minY, box.minY), Swift.max(maxY, box.maxY))
  }

  private mutating func grow() {
    let moved = UnsafeMutablePointer<(UnsafePointer<SetupTriangle>, TileTriangle)>.allocate(
      capacity: 2 * capacity)
    moved.moveInitialize(from: triangles, count: count)
    triangles.deallocate()
    let movedRanks = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * capacity)
    movedRanks.update(from: rankStorage, count: count)
    rankStorage.deallocate()
    rankStorage = movedRanks
    let old = lists
    lists = Self.allocateLists(2 * capacity)
    lists.update(from: old, count: count)
    (old - 1).deallocate()
    (triangles, capacity) = (moved, 2 * capacity)
  }

  /// Makes the lists room for ``listed`` entries.
  private mutating func reserveLists() {
    guard listed > listCapacity else { return }
    dx.deallocate()
    dy.deallocate()
    colorIndex.deallocate()
    listCapacity = Swift.max(2 * listCapacity, listed)
    dx = Self.allocateEntries(listCapacity)
    dy = Self.allocateEntries(listCapacity)
    colorIndex = Self.allocateEntries(listCapacity)
  }

  /// The samples triangle `j` is left with after ``sortSamples(visible:depthWidth:colorWidth:)``:
  /// where its list starts in ``dx``, ``dy`` and ``colorIndex``, and how many there are.
  @inline(__always)
  func samples(of j: Int) -> (first: Int, count: Int) {
    let list = lists[j]
    return (Int(list.start), Int(list.cursor &- list.start))
  }

  /// Sorts the samples marked in `visible` (the tile's triangle numbers, rows `depthWidth`
  /// apart, indexed as the tile's depth) into one list per triangle, row by row as each
  /// triangle's box would list them, with their colour indices for rows `colorWidth` apart;
  /// sets the numbers back to ``none``.
  ///
  /// Four samples at a time, split into runs of one number (a group of four inside a triangle
  /// is one run, one across an edge two): each run is written to its list as four lanes, of
  /// which the list keeps as many as the run has, so that no lane is written on its own. The
  /// cursor of the list written last stays in a register while its runs follow one another
  /// (kept in memory, each run would wait on the last one's store).
  mutating func sortSamples(visible: UnsafeMutablePointer<Int32>, depthWidth: Int, colorWidth: Int) {
    guard count > 0 else { return }
    reserveLists()
    let (dx, dy, colorIndex, lists) = (self.dx, self.dy, self.colorIndex, self.lists)
    let lanes = SIMD4<Int32>(0, 1, 2, 3), unmarked = SIMD4<Int32>(repeating: Self.none)
    // The run's triangle and its list's cursor, its box's first column (every lane) and the
    // row's offset from its box's first (every lane).
    var runID = Self.none, runCursor = lists[-1].cursor
    var runMinX = SIMD4<Int32>.zero, runDY = SIMD4<Float>.zero
    var y: Int32 = 0
    /// The columns and colour indices of the group's four samples.
    var columns = SIMD4<Int32>.zero, indices = SIMD4<Int32>.zero
    /// Lists the run of triangle `id` (≥ 0) of `length` samples from lane `first`.
    @inline(__always) func place(_ id: Int32, length: Int32, first: Int32) {
      if id != runID {
        lists[Int(runID)].cursor = runCursor
        (runID, runCursor) = (id, lists[Int(id)].cursor)
        let origin = lists[Int(id)].origin
        (runMinX, runDY) = (SIMD4(repeating: origin.x), SIMD4(repeating: Float(y &- origin.y)))
      }
      let c = Int(runCursor), shift = SIMD4(repeating: first)
      UnsafeMutableRawPointer(dx + c).storeBytes(
        of: LaneMath.float(columns &+ shift &- runMinX), as: SIMD4<Float>.self)
      UnsafeMutableRawPointer(dy + c).storeBytes(of: runDY, as: SIMD4<Float>.self)
      UnsafeMutableRawPointer(colorIndex + c).storeBytes(of: indices &+ shift, as: SIMD4<Int32>.self)
      runCursor &+= length
    }
    /// Lists the marked samples of the group at `numbers`, of which the first `inside` are
    /// the union's, and sets them back to ``none``.
    @inline(__always) func sortGroup(_ numbers: UnsafeMutablePointer<Int32>, inside: Int) {
      let ids = UnsafeRawPointer(numbers).loadUnaligned(as: SIMD4<Int32>.self)
      // Bit k set where lane k ends a run: its number differs from the next lane's.
      let same = LaneMath.signBits(LaneMath.equalMask(ids, SIMD4(ids.y, ids.z, ids.w, ids.w)))
      var ends = Int(~same & 7 | 8)
      if inside < 4 {
        // The row's last group reaches past the union, into samples to leave alone.
        ends = ends & ((1 &<< inside) &- 1) | 1 &<< (inside &- 1)
        for lane in 0..<inside { numbers[lane] = Self.none }
      } else {
        if ends == 8 && ids.x < 0 { return }  // nothing marked
        UnsafeMutableRawPointer(numbers).storeBytes(of: unmarked, as: SIMD4<Int32>.self)
      }
      if ends == 8 { return place(ids.x, length: 4, first: 0) }
      var first = 0
      while ends != 0 {
        let last = ends.trailingZeroBitCount
        ends &= ends &- 1
        let id = ids[first]
        if id >= 0 {
          place(
            id, length: Int32(truncatingIfNeeded: last &- first &+ 1), first: Int32(truncatingIfNeeded: first)
          )
        }
        first = last &+ 1
      }
    }
    let width = maxX &- minX &+ 1
    for row in minY...maxY {
      // A run's row offset changes with the row.
      lists[Int(runID)].cursor = runCursor
      runID = Self.none
      y = Int32(truncatingIfNeeded: row)
      columns = SIMD4(repeating: Int32(truncatingIfNeeded: minX)) &+ lanes
      indices = SIMD4(repeating: Int32(truncatingIfNeeded: row &* colorWidth &+ minX)) &+ lanes
      var numbers = visible + (row &* depthWidth &+ minX)
      let end = numbers + width
      while numbers + 4 <= end {
        sortGroup(numbers, inside: 4)
        numbers += 4
        columns &+= 4
        indices &+= 4
      }
      if numbers < end { sortGroup(numbers, inside: end - numbers) }
    }
    lists[Int(runID)].cursor = runCursor
    // Each list's last group filled out with finite values.
    for j in 0..<count {
      var end = Int(lists[j].cursor)
      while end & 3 != 0 {
        (dx[end], dy[end], colorIndex[end]) = (0, 0, 0)
        end &+= 1
      }
    }
  }

  /// Forgets the marked triangles.
  mutating func removeAll() {
    (count, listed) = (0, 0)
    (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
  }
}
