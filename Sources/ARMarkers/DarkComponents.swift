/// The 4-connected components of a thresholded image's dark pixels, found from runs: each row's
/// runs of dark pixels, joined by union-find with the runs they overlap in the row above. A
/// pixel-by-pixel flood fill visited every dark pixel through a stack and wrote a label for
/// each; runs touch each pixel once, as a byte compared, and labels are written only for the
/// components a caller asks for.
struct DarkComponents {
  /// A run of dark pixels: row `y`, columns `start..<end`.
  struct Run {
    var y: Int32, start: Int32, end: Int32
  }

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
    var runs: [Run] = []
    var rowStarts = [Int](repeating: 0, count: height + 1)
    dark.withUnsafeBufferPointer { dark in
      guard let base = dark.baseAddress else { return }
      let bytes = UnsafeRawPointer(base)
      /// Whether the eight pixels from `i` are all `value` (a Bool is one byte, 0 or 1): most of a
      /// thresholded image is long stretches of one value, passed a word at a time.
      @inline(__always) func eight(_ i: Int, all value: UInt64) -> Bool {
        bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) == value
      }
      let (light, darkWord): (UInt64, UInt64) = (0, 0x0101_0101_0101_0101)
      for y in 0..<height {
        rowStarts[y] = runs.count
        let row = y * width
        var x = 0
        while x < width {
          while x &+ 8 <= width && eight(row &+ x, all: light) { x &+= 8 }
          while x < width && !dark[row &+ x] { x &+= 1 }
          guard x < width else { break }
          let start = x
          while x &+ 8 <= width && eight(row &+ x, all: darkWord) { x &+= 8 }
          while x < width && dark[row &+ x] { x &+= 1 }
          runs.append(Run(y: Int32(y), start: Int32(start), end: Int32(x)))
        }
      }
    }
    rowStarts[height] = runs.count
    // Union-find over the runs: a run joins every run of the row above whose columns overlap its
    // own (4-connectivity: sharing a column, not only a corner). Roots are the smallest run.
    var parent = [Int32](0..<Int32(runs.count))
    func root(_ i: Int32) -> Int32 {
      var i = i
      while parent[Int(i)] != i {
        parent[Int(i)] = parent[Int(parent[Int(i)])]  // path halving
        i = parent[Int(i)]
      }
      return i
    }
    if height > 1 {
      for y in 1..<height {
        var above = rowStarts[y - 1]
        for i in rowStarts[y]..<rowStarts[y + 1] {
          let run = runs[i]
          while above < rowStarts[y] && runs[above].end <= run.start { above += 1 }
          var k = above
          while k < rowStarts[y] && runs[k].start < run.end {
            let (a, b) = (root(Int32(i)), root(Int32(k)))
            if a != b { parent[Int(max(a, b))] = min(a, b) }
            k += 1
          }
        }
      }
    }
    // Components numbered by their roots in run order, which is the raster order of first pixels.
    var componentOfRun = [Int32](repeating: -1, count: runs.count)
    var nextRun = [Int32](repeating: -1, count: runs.count), lastRun: [Int] = []
    var components: [Component] = []
    for i in runs.indices {
      let r = Int(root(Int32(i)))
      if r == i {
        componentOfRun[i] = Int32(components.count)
        let run = runs[i]
        components.append(
          Component(
            count: 0, minX: Int(run.start), maxX: Int(run.end) - 1, minY: Int(run.y), maxY: Int(run.y),
            firstRun: i))
        lastRun.append(i)
      } else {
        componentOfRun[i] = componentOfRun[r]
      }
      let run = runs[i], c = Int(componentOfRun[i])
      if lastRun[c] != i { nextRun[lastRun[c]] = Int32(i) }
      lastRun[c] = i
      components[c].count += Int(run.end - run.start)
      components[c].minX = min(components[c].minX, Int(run.start))
      components[c].maxX = max(components[c].maxX, Int(run.end) - 1)
      components[c].maxY = max(components[c].maxY, Int(run.y))
    }
    self.runs = runs
    self.nextRun = nextRun
    self.components = components
  }

  /// Component `c`'s pixels as a mask of its bounding box with a pixel's margin all round:
  /// row-major, `width` × `height`, its top-left pixel the image's (minX − 1, minY − 1).
  func mask(of c: Int) -> (mask: [Bool], width: Int, height: Int) {
    let part = components[c]
    let (width, height) = (part.maxX - part.minX + 3, part.maxY - part.minY + 3)
    var mask = [Bool](repeating: false, count: width * height)
    var i = part.firstRun
    while i >= 0 {
      let run = runs[i], row = (Int(run.y) - part.minY + 1) * width - part.minX + 1
      for x in Int(run.start)..<Int(run.end) { mask[row + x] = true }
      i = Int(nextRun[i])
    }
    return (mask, width, height)
  }

  /// The outer boundary of component `c` as pixel-corner points of the image, clockwise (y
  /// down): the boundary between its pixels and the rest, traced along the pixel edges from the
  /// top edge of its first pixel in raster order. Traced on a mask of its bounding box and a
  /// pixel's margin, never on an image-sized label.
  func outline(of c: Int) -> [SIMD2<Double>] {
    let (mask, width, height) = self.mask(of: c)
    let part = components[c], first = runs[part.firstRun]
    let corner = SIMD2(Double(part.minX - 1), Double(part.minY - 1))
    func inside(_ x: Int, _ y: Int) -> Bool {
      x >= 0 && y >= 0 && x < width && y < height && mask[y * width + x]
    }
    let start = (Int(first.y) - part.minY + 1) * width + Int(first.start) - part.minX + 1
    // Walk the corner lattice keeping the component on the right.
    let origin = SIMD2(start % width, start / width)
    var position = origin, direction = SIMD2(1, 0)  // along the top edge of the first pixel
    var points: [SIMD2<Double>] = []
    // About the box's perimeter, for most outlines: grown once, not doubled again and again.
    points.reserveCapacity(2 * (width + height))
    let limit = 4 * part.count + 4  // no outline has more edges than its pixels have sides
    repeat {
      points.append(SIMD2(Double(position.x), Double(position.y)) + corner)
      position &+= direction
      // At the new lattice corner, the pixels ahead-left and ahead-right of the direction.
      let (dx, dy) = (direction.x, direction.y)
      // Pixel to the right of the edge ahead (component side), and to the left.
      func pixel(_ corner: SIMD2<Int>, _ d: SIMD2<Int>, right: Bool) -> (Int, Int) {
        // For direction (1,0) along a top edge: right is the pixel below-right (x, y); left is (x, y-1).
        switch (d.x, d.y, right) {
        case (1, 0, true): return (corner.x, corner.y)
        case (1, 0, false): return (corner.x, corner.y - 1)
        case (0, 1, true): return (corner.x - 1, corner.y)
        case (0, 1, false): return (corner.x, corner.y)
        case (-1, 0, true): return (corner.x - 1, corner.y - 1)
        case (-1, 0, false): return (corner.x - 1, corner.y)
        case (0, -1, true): return (corner.x, corner.y - 1)
        default: return (corner.x - 1, corner.y - 1)
        }
      }
      let (lx, ly) = pixel(position, direction, right: false),
        (rx, ry) = pixel(position, direction, right: true)
      if inside(lx, ly) {
        direction = SIMD2(dy, -dx)  // turn left
      } else if !inside(rx, ry) {
        direction = SIMD2(-dy, dx)  // turn right
      }
    } while (position != origin || direction != SIMD2(1, 0)) && points.count < limit
    return points
  }
}
