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
      for y in 0..<height {
        rowStarts[y] = runs.count
        let row = y * width
        var x = 0
        while x < width {
          while x < width && !dark[row &+ x] { x &+= 1 }
          guard x < width else { break }
          let start = x
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

  /// Writes `id` into `label` (row-major, the image's size) over every pixel of component `c`.
  func paint(_ c: Int, as id: Int32, into label: inout [Int32]) {
    label.withUnsafeMutableBufferPointer { label in
      var i = components[c].firstRun
      while i >= 0 {
        let run = runs[i], row = Int(run.y) * width
        for x in Int(run.start)..<Int(run.end) { label[row + x] = id }
        i = Int(nextRun[i])
      }
    }
  }
}
