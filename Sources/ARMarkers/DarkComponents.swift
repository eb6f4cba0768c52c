import CVectorKernels

/// The 4-connected components of a thresholded image's dark pixels, found from runs: each row's
/// runs of dark pixels, joined by union-find with the runs they overlap in the row above. A
/// pixel-by-pixel flood fill visited every dark pixel through a stack and wrote a label for
/// each; runs touch each pixel once, as a byte compared, and labels are written only for the
/// components a caller asks for.
struct DarkComponents {
  /// A run of dark pixels: row `y`, columns `start..<end`.
  typealias Run = arscene_run

  /// A component: its pixel count, bounding box (pixels, inclusive) and first run, which holds
  /// its first pixel in raster order.
  struct Component {
    var count: Int
    var minX: Int, maxX: Int, minY: Int, maxY: Int
    var firstRun: Int
  }

  let width: Int
  /// The runs in raster order.
  let runs: [Run]
  /// Each run's successor in its component (run order), or −1 after the last.
  let nextRun: [Int32]
  /// The components, in the raster order of their first pixels.
  let components: [Component]

  init(dark: [Bool], width: Int, height: Int) {
    self.width = width
    let (runs, rowStarts) = Self.runs(of: dark, width: width, height: height)
    let roots = Self.joined(runs, rowStarts: rowStarts)
    (components, nextRun) = Self.components(of: runs, roots: roots)
    self.runs = runs
  }

  /// Each row's runs of dark pixels in raster order, and where each row's runs start (one entry
  /// a row and one past the last).
  private static func runs(of dark: [Bool], width: Int, height: Int) -> (runs: [Run], rowStarts: [Int]) {
    var runs: [Run] = []
    // Textured photos have a run every 16-20 pixels: reserved at once, not doubled repeatedly.
    runs.reserveCapacity(dark.count / 16)
    var rowStarts = [Int](repeating: 0, count: height + 1)
    // A row's runs found in C, 64 pixels a word (``arscene_dark_row_runs``), then appended.
    let row = UnsafeMutableBufferPointer<Run>.allocate(capacity: (width + 1) / 2)
    defer { row.deallocate() }
    dark.withUnsafeBufferPointer { dark in
      dark.withMemoryRebound(to: UInt8.self) { bytes in
        for y in 0..<height {
          rowStarts[y] = runs.count
          let count = arscene_dark_row_runs(bytes.baseAddress! + y * width, width, Int32(y), row.baseAddress)
          runs.append(contentsOf: UnsafeBufferPointer(rebasing: row[0..<count]))
        }
      }
    }
    rowStarts[height] = runs.count
    return (runs, rowStarts)
  }

  /// Each run's root: the first run of its component. Union-find over the runs: a run joins
  /// every run of the row above whose columns overlap its own (4-connectivity: sharing a
  /// column, not only a corner), a root always the smaller run.
  private static func joined(_ runs: [Run], rowStarts: [Int]) -> [Int32] {
    var parent = [Int32](unsafeUninitializedCapacity: runs.count) { buffer, count in
      for i in 0..<runs.count { buffer[i] = Int32(truncatingIfNeeded: i) }
      count = runs.count
    }
    let rows = rowStarts.count - 1
    runs.withUnsafeBufferPointer { runs in
      parent.withUnsafeMutableBufferPointer { parent in
        let parent = parent.baseAddress!
        @inline(__always) func root(_ i: Int32) -> Int32 {
          var i = i
          while parent[Int(i)] != i {
            parent[Int(i)] = parent[Int(parent[Int(i)])]  // path halving
            i = parent[Int(i)]
          }
          return i
        }
        for y in stride(from: 1, to: rows, by: 1) {
          var above = rowStarts[y - 1]
          let (first, end) = (rowStarts[y], rowStarts[y + 1])
          for i in first..<end {
            let run = runs[i]
            while above < first && runs[above].end <= run.start { above &+= 1 }
            var k = above
            while k < first && runs[k].start < run.end {
              let (a, b) = (root(Int32(truncatingIfNeeded: i)), root(Int32(truncatingIfNeeded: k)))
              if a != b { parent[Int(max(a, b))] = min(a, b) }
              k &+= 1
            }
          }
        }
        // Every parent is a smaller run: in run order, each parent's root is known by the
        // time a run is reached, so one pass leaves every run pointing at its root.
        for i in 0..<runs.count { parent[i] = parent[Int(parent[i])] }
      }
    }
    return parent
  }

  /// The components of `runs` whose roots are `roots`, numbered by their roots in run order
  /// (the raster order of first pixels), and each run's successor in its component.
  private static func components(of runs: [Run], roots: [Int32]) -> (
    components: [Component], nextRun: [Int32]
  ) {
    var nextRun = [Int32](repeating: -1, count: runs.count)
    // Scratch: each root run's component, and each component's last run so far.
    let componentOfRoot = UnsafeMutableBufferPointer<Int32>.allocate(capacity: runs.count)
    defer { componentOfRoot.deallocate() }
    var count = 0
    for i in roots.indices where Int(roots[i]) == i {
      componentOfRoot[i] = Int32(truncatingIfNeeded: count)
      count += 1
    }
    let lastRun = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    defer { lastRun.deallocate() }
    var components = [Component](
      repeating: Component(count: 0, minX: 0, maxX: 0, minY: 0, maxY: 0, firstRun: 0), count: count)
    runs.withUnsafeBufferPointer { runs in
      components.withUnsafeMutableBufferPointer { components in
        nextRun.withUnsafeMutableBufferPointer { nextRun in
          for i in runs.indices {
            let run = runs[i], root = Int(roots[i])
            let c = Int(componentOfRoot[root])
            let (start, last) = (Int(run.start), Int(run.end) - 1)
            if root == i {
              components[c] = Component(
                count: 0, minX: start, maxX: last, minY: Int(run.y), maxY: Int(run.y), firstRun: i)
            } else {
              nextRun[Int(lastRun[c])] = Int32(truncatingIfNeeded: i)
            }
            lastRun[c] = Int32(truncatingIfNeeded: i)
            components[c].count &+= last &- start &+ 1
            components[c].minX = min(components[c].minX, start)
            components[c].maxX = max(components[c].maxX, last)
            components[c].maxY = Int(run.y)
          }
        }
      }
    }
    return (components, nextRun)
  }

  /// Component `c`'s pixels as a mask of its bounding box with a pixel's margin all round:
  /// row-major, `width` × `height`, its top-left pixel the image's (minX − 1, minY − 1).
  func mask(of c: Int) -> (mask: [Bool], width: Int, height: Int) {
    let part = components[c]
    let (width, height) = (part.maxX - part.minX + 3, part.maxY - part.minY + 3)
    let mask = [Bool](unsafeUninitializedCapacity: width * height) { buffer, count in
      fillMask(of: c, into: buffer, width: width)
      count = width * height
    }
    return (mask, width, height)
  }

  /// Writes ``mask(of:)`` into `mask`, whose rows are `width` long.
  private func fillMask(of c: Int, into mask: UnsafeMutableBufferPointer<Bool>, width: Int) {
    let part = components[c]
    mask.initialize(repeating: false)
    runs.withUnsafeBufferPointer { runs in
      nextRun.withUnsafeBufferPointer { nextRun in
        var i = part.firstRun
        while i >= 0 {
          let run = runs[i], row = (Int(run.y) - part.minY + 1) * width - part.minX + 1
          for x in Int(run.start)..<Int(run.end) { mask[row &+ x] = true }
          i = Int(nextRun[i])
        }
      }
    }
  }

  /// The outer boundary of component `c` as the pixel-corner points of the image where it
  /// turns, clockwise (y down): the boundary between its pixels and the rest, traced along the
  /// pixel edges from the top-left corner of its first pixel in raster order. Straight stretches
  /// between turns hold no point (the simplification that follows would never keep one: a
  /// line's distance from a chord is largest at a stretch's ends), so an axis-aligned side
  /// costs one point, not one a pixel. Traced on a mask of its bounding box and a pixel's
  /// margin, never on an image-sized label.
  func outline(of c: Int) -> [SIMD2<Double>] {
    let part = components[c], first = runs[part.firstRun]
    let (width, height) = (part.maxX - part.minX + 3, part.maxY - part.minY + 3)
    let corner = SIMD2(Double(part.minX - 1), Double(part.minY - 1))
    var points: [SIMD2<Double>] = []
    points.reserveCapacity(width + height)
    withUnsafeTemporaryAllocation(of: Bool.self, capacity: width * height) { mask in
      fillMask(of: c, into: mask, width: width)
      // Directions clockwise from rightwards (right, down, left, up): each one's step on the
      // lattice of corners (indexed as the mask's pixels: corner (x, y) is index y·width + x),
      // and the pixels ahead on its left and right, as offsets from the corner reached. The
      // margin keeps every one of them inside the mask. (Tuples read by a switch: a SIMD4
      // read at a variable lane went through memory at every step.)
      @inline(__always) func offsets(_ direction: Int) -> (step: Int, left: Int, right: Int) {
        switch direction {
        case 0: (1, -width, 0)
        case 1: (width, 0, -1)
        case 2: (-1, -1, -width - 1)
        default: (-width, -width - 1, -width)
        }
      }
      let (x0, y0) = (Int(first.start) - part.minX + 1, Int(first.y) - part.minY + 1)
      let origin = y0 * width + x0
      points.append(SIMD2(Double(x0), Double(y0)) + corner)
      // Along the top edge of the first pixel, keeping the component on the right. The
      // corner's column and row are kept as it moves (a division a turn was a tenth of a
      // trace), its index in the mask with them.
      var (position, x, y, direction) = (origin, x0, y0, 0)
      var ahead = offsets(0)
      let limit = 4 * part.count + 4  // no outline has more edges than its pixels have sides
      for _ in 0..<limit {
        position &+= ahead.step
        switch direction {
        case 0: x &+= 1
        case 1: y &+= 1
        case 2: x &-= 1
        default: y &-= 1
        }
        let turned =
          mask[position &+ ahead.left]
          ? (direction &+ 3) & 3 : mask[position &+ ahead.right] ? direction : (direction &+ 1) & 3
        if position == origin && turned == 0 { break }
        if turned != direction {
          points.append(SIMD2(Double(x), Double(y)) + corner)
          direction = turned
          ahead = offsets(turned)
        }
      }
    }
    return points
  }
}
