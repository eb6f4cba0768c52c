extension GreyImage {
  /// ``threshold(window:)`` of an image of whole 8-bit `levels`, in 32-bit integers: the same
  /// decisions (every sum and product is a whole number either way, exact in both), four
  /// pixels to an SSE2 instruction where doubles took two, and additions whose latency no
  /// longer bounds a row's running sums. Nil when a row's sums could pass `Int32.max`.
  func wholeLevelThreshold(_ levels: [UInt8], window: Int) -> [Bool]? {
    let r = window / 2
    // The largest value: a row's running sum of column sums, 255 · rows · width, and a
    // decision's (255 + 7) · rows · columns.
    guard 262 * (2 * r + 1) * (width + 1) < Int(Int32.max) else { return nil }
    var dark = Self.keptMasks.take(count: width * height)
    let columns = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width)
    let across = UnsafeMutableBufferPointer<Int32>.allocate(capacity: width + 1)  // columns[0..<x] summed
    defer {
      columns.deallocate()
      across.deallocate()
    }
    columns.initialize(repeating: 0)
    levels.withUnsafeBufferPointer { levels in
      dark.withUnsafeMutableBufferPointer { dark in
        let (sums, luma, out) = (columns.baseAddress!, levels.baseAddress!, dark.baseAddress!)
        for y in 0..<min(r, height) { Self.add(luma + y * width, to: sums, width) }
        for y in 0..<height {
          if y + r < height { Self.add(luma + (y + r) * width, to: sums, width) }
          if y - r - 1 >= 0 { Self.subtract(luma + (y - r - 1) * width, from: sums, width) }
          var running: Int32 = 0
          for x in 0..<width {
            across[x] = running
            running &+= sums[x]
          }
          across[width] = running
          let rows = Int32(min(height, y + r + 1) - max(0, y - r))
          decideRow(luma + y * width, rows: rows, r, across.baseAddress!, into: out + y * width)
        }
      }
    }
    return dark
  }

  /// `sums[x] += row[x]` for x below `width` (vectorised: pointers as plain arguments).
  @inline(__always)
  private static func add(_ row: UnsafePointer<UInt8>, to sums: UnsafeMutablePointer<Int32>, _ width: Int) {
    for x in 0..<width { sums[x] &+= Int32(row[x]) }
  }

  /// `sums[x] -= row[x]` for x below `width`.
  @inline(__always)
  private static func subtract(
    _ row: UnsafePointer<UInt8>, from sums: UnsafeMutablePointer<Int32>, _ width: Int
  ) {
    for x in 0..<width { sums[x] &-= Int32(row[x]) }
  }

  /// One row's decisions, level + 7 below the window's mean, as products (no division):
  /// `rows` rows of the window, its columns cut at the image's edges.
  @inline(__always)
  private func decideRow(
    _ row: UnsafePointer<UInt8>, rows: Int32, _ r: Int, _ across: UnsafeMutablePointer<Int32>,
    into dark: UnsafeMutablePointer<Bool>
  ) {
    let (inner0, inner1) = (min(r, width), max(min(r, width), width - r - 1))
    for x in 0..<inner0 { decide(x) }
    let area = rows &* Int32(2 * r + 1)
    for x in inner0..<inner1 {
      dark[x] = (Int32(row[x]) &+ 7) &* area < across[x &+ r &+ 1] &- across[x &- r]
    }
    for x in inner1..<width { decide(x) }
    @inline(__always) func decide(_ x: Int) {
      let (x0, x1) = (max(0, x - r), min(width, x + r + 1))
      dark[x] = (Int32(row[x]) &+ 7) &* rows &* Int32(x1 - x0) < across[x1] &- across[x0]
    }
  }
}
