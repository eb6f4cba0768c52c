import ARMath
import CVectorKernels

extension GreyImage {
  /// Tiles' side, pixels (the AprilTag library's default; ``compareRow(_:with:into:)`` takes a
  /// tile as one SIMD4).
  static let midpointTile = 4
  /// The least difference of the darkest and lightest values around a pixel for it to be dark,
  /// levels.
  static let midpointContrast: Float = 20

  /// Dark pixels by the midpoint rule of the AprilTag library's detector: below the middle of
  /// the darkest and lightest values in the 3 × 3 tiles of 4 × 4 pixels around the pixel's tile,
  /// where those two differ by at least ``midpointContrast`` levels and the darkest is at most
  /// half the lightest. Ink is that much darker than paper at any exposure and under any tone
  /// curve, while texture and shading seldom are within a dozen pixels: without the ratio, a
  /// real ChArUco photo's background gave half again as many candidates, each read in vain.
  ///
  /// Where a marker's white margin lies beside something much lighter (a cube's sunlit top
  /// beside its shaded face), a window's mean is pulled up past the margin's level and the
  /// margin turns dark, joining the marker to its neighbours; the midpoint stays between the
  /// marker's black and the lightest white near it.
  func midpointThreshold() -> [Bool] {
    if let levels, let dark = wholeLevelMidpointThreshold(levels) { return dark }
    let tile = Self.midpointTile
    let (columns, rows) = ((width + tile - 1) / tile, (height + tile - 1) / tile)
    var middle = [Float](repeating: 0, count: columns * rows)
    // Every pixel is decided below: a kept mask's old values are all overwritten.
    var dark = Self.keptMasks.take(count: width * height)
    values.withUnsafeBufferPointer { values in
      middle.withUnsafeMutableBufferPointer { middle in
        tileMidpoints(values.baseAddress!, columns: columns, rows: rows, into: middle)
        dark.withUnsafeMutableBufferPointer { dark in
          for y in 0..<height {
            compareRow(
              values.baseAddress! + y * width, with: middle.baseAddress! + (y / tile) * columns,
              into: dark.baseAddress! + y * width)
          }
        }
      }
    }
    return dark
  }

  /// Each tile's midpoint: its 3 × 3 neighbourhood's lowest and highest values, then their
  /// middle, or NaN where they are too close (every comparison with NaN is false: no dark
  /// pixel).
  private func tileMidpoints(
    _ values: UnsafePointer<Float>, columns: Int, rows: Int, into middle: UnsafeMutableBufferPointer<Float>
  ) {
    let tile = Self.midpointTile
    // Each tile's bounds spread across its row's neighbours (the 3 × 1 neighbourhood); the
    // vertical spread follows when the midpoints are taken.
    let lowest = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns * rows)
    let highest = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns * rows)
    let rowLow = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns * tile)
    let rowHigh = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns * tile)
    let tileLow = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns)
    let tileHigh = UnsafeMutableBufferPointer<Float>.allocate(capacity: columns)
    defer { [lowest, highest, rowLow, rowHigh, tileLow, tileHigh].forEach { $0.deallocate() } }
    for ty in 0..<rows {
      // The tile row's rows folded into one, columnwise (a loop the compiler vectorises), then
      // each tile's four columns.
      let first = values + ty * tile * width
      for x in 0..<width { (rowLow[x], rowHigh[x]) = (first[x], first[x]) }
      for y in (ty * tile + 1)..<min(height, ty * tile + tile) {
        let row = values + y * width
        for x in 0..<width {
          rowLow[x] = min(rowLow[x], row[x])
          rowHigh[x] = max(rowHigh[x], row[x])
        }
      }
      for tx in 0..<columns {
        let (x0, x1) = (tx * tile, min(width, tx * tile + tile))
        var (low, high) = (rowLow[x0], rowHigh[x0])
        for x in (x0 + 1)..<x1 {
          low = min(low, rowLow[x])
          high = max(high, rowHigh[x])
        }
        (tileLow[tx], tileHigh[tx]) = (low, high)
      }
      let row = ty * columns
      for tx in 0..<columns {
        let (a, b) = (max(0, tx - 1), min(columns - 1, tx + 1))
        lowest[row + tx] = min(tileLow[a], min(tileLow[tx], tileLow[b]))
        highest[row + tx] = max(tileHigh[a], max(tileHigh[tx], tileHigh[b]))
      }
    }
    for ty in 0..<rows {
      let (above, below) = (max(0, ty - 1) * columns, min(rows - 1, ty + 1) * columns)
      let row = ty * columns
      for tx in 0..<columns {
        let low = min(lowest[above + tx], min(lowest[row + tx], lowest[below + tx]))
        let high = max(highest[above + tx], max(highest[row + tx], highest[below + tx]))
        let apart = high - low >= Self.midpointContrast && low <= high / 2
        middle[row + tx] = apart ? (low + high) / 2 : .nan
      }
    }
  }

  /// One row's dark pixels: each below its tile's midpoint, a tile (four pixels, one SIMD4) at
  /// a time.
  @inline(__always)
  private func compareRow(
    _ row: UnsafePointer<Float>, with middle: UnsafePointer<Float>, into dark: UnsafeMutablePointer<Bool>
  ) {
    let whole = width / 4
    let raw = UnsafeRawPointer(row)
    for t in 0..<whole {
      let isDark =
        raw.loadUnaligned(fromByteOffset: t &* 16, as: SIMD4<Float>.self) .< SIMD4(repeating: middle[t])
      for k in 0..<4 { dark[t &* 4 &+ k] = isDark[k] }
    }
    for x in (whole * 4)..<width { dark[x] = row[x] < middle[x / 4] }
  }

  /// ``midpointThreshold()`` of an image of whole 8-bit `levels`, in C on bytes: the same
  /// decisions (a whole level below the midpoint of whole `low` and `high` is one below
  /// `ceil((low + high) / 2)`, and `low ≤ high / 2` is `2 low ≤ high`), sixteen pixels an
  /// instruction where floats took four. Nil when the kernel's scratch memory could not be had.
  func wholeLevelMidpointThreshold(_ levels: [UInt8]) -> [Bool]? {
    Self.keptMask(count: width * height) { out in
      levels.withUnsafeBufferPointer { levels in
        arscene_midpoint_dark(levels.baseAddress, width, height, Int32(Self.midpointContrast), out)
      }
    }
  }
}
