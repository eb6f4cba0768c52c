import ARMath
import ARPose

/// A candidate marker's cells read through the homography from its grid: each cell's mean
/// level, judged against a threshold that follows the light across the marker (the mean of a
/// black model fitted to the dark border and a white one fitted to the quiet zone around it,
/// each a plane in the marker's grid, as the AprilTag library models a tag's lighting), so a
/// gradient of glare or shadow does not flip cells.
struct MarkerCells {
  /// Data cells along a side.
  let size: Int
  /// Each data cell's signed confidence, row by row: its level less the local threshold over
  /// half the local contrast (> 0 white; about ±1 for a clean cell).
  let confidence: [Double]
  /// The data cells as bits (true white), row by row.
  var bits: [Bool] { confidence.map { $0 > 0 } }

  /// Whether every data cell along side `side` of the outline (0 top, 1 right, 2 bottom, 3 left
  /// in the outline's own grid) reads clearly: at least half the local contrast from its
  /// threshold.
  func clear(along side: Int) -> Bool {
    let n = size
    let cells: [Int] =
      switch side {
      case 0: Array(0..<n)
      case 1: (0..<n).map { $0 * n + n - 1 }
      case 2: ((n - 1) * n..<n * n).map { $0 }
      default: (0..<n).map { $0 * n }
      }
    return cells.allSatisfy { abs(confidence[$0]) >= 0.5 }
  }
  /// AprilTag's decision margin, levels: the lesser of the white cells' mean excess over their
  /// threshold and the black cells' mean shortfall under it.
  let decisionMargin: Double
  /// The local contrast at the marker's centre, white model less black, levels.
  let contrast: Double
  /// The share of data cells whose samples spread over more than half the contrast: cells a
  /// grid of the wrong size cuts across (a 6×6 marker read as a 4×4 one), near 0 for a marker
  /// read with its own grid.
  let split: Double

  /// The cells of the marker of `size` data cells a side outlined by `quad` in `grey`; nil when
  /// a data cell is outside the image, the cells have no contrast, the border is not dark or
  /// the quiet zone around it not light.
  init?(_ quad: [SIMD2<Double>], size n: Int, in grey: GreyImage) {
    var nearly = false
    self.init(quad, size: n, in: grey, gridNearlyOnEdges: &nearly)
  }

  /// ``init(_:size:in:)``, saying in `gridNearlyOnEdges` when the cells were refused only for
  /// a quiet zone dark in more than a quarter of its samples but no more than half, or a border
  /// light in more than a fifth but no more than three fifths with two opposite sides dark
  /// between their corners: what an outline a pixel off a small marker's edges gives (the
  /// quiet zone's strip, 0.4 of a cell out, on the blurred border; or the border's cells along
  /// the sides it overhangs on the blurred edges), which corners refined onto the edges read
  /// cleanly.
  init?(_ quad: [SIMD2<Double>], size n: Int, in grey: GreyImage, gridNearlyOnEdges: inout Bool) {
    let across = Double(n + 2)
    let grid = [SIMD2(0.0, 0.0), SIMD2(across, 0), SIMD2(across, across), SIMD2(0, across)]
    guard let h = try? Homography.estimate(from: grid, to: quad) else { return nil }
    let (width, height) = (Double(grey.width), Double(grey.height))
    func inside(_ p: SIMD2<Double>) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height }
    /// The mean level at the `count` grid points `point(k)` and their spread (largest less
    /// least), nil when one is outside the image. (Points made as they are sampled: arrays of
    /// them, a few a cell, were much of a candidate's time.)
    func levels(count: Int, _ point: (Int) -> SIMD2<Double>) -> (mean: Double, spread: Double)? {
      var (sum, low, high) = (0.0, Double.infinity, -Double.infinity)
      for k in 0..<count {
        guard let p = h.apply(point(k)), inside(p) else { return nil }
        let v = grey.sample(p)
        (sum, low, high) = (sum + v, Swift.min(low, v), Swift.max(high, v))
      }
      return (sum / Double(count), high - low)
    }
    let pattern = [-0.25, 0.0, 0.25]
    /// A cell's nine samples, row by row of the pattern.
    func cellLevels(_ row: Int, _ column: Int) -> (mean: Double, spread: Double)? {
      let centre = SIMD2(Double(column) + 0.5, Double(row) + 0.5)
      return levels(count: 9) { k in centre + SIMD2(pattern[k % 3], pattern[k / 3]) }
    }
    func cell(_ row: Int, _ column: Int) -> Double? { cellLevels(row, column)?.mean }
    var data: [(SIMD2<Double>, Double)] = [], spreads: [Double] = []
    data.reserveCapacity(n * n)
    spreads.reserveCapacity(n * n)
    for row in 1...n {
      for column in 1...n {
        guard let level = cellLevels(row, column) else { return nil }
        data.append((SIMD2(Double(column) + 0.5, Double(row) + 0.5), level.mean))
        spreads.append(level.spread)
      }
    }
    var border: [(SIMD2<Double>, Double)] = []
    border.reserveCapacity(4 * (n + 1))
    // Each of the 4(n + 1) border cells once, clockwise from the top-left.
    for i in 0...n {
      for side in 0..<4 {
        let (r, c) =
          switch side {
          case 0: (0, i)
          case 1: (i, n + 1)
          case 2: (n + 1, n + 1 - i)
          default: (n + 1 - i, 0)
          }
        if let level = cell(r, c) { border.append((SIMD2(Double(c) + 0.5, Double(r) + 0.5), level)) }
      }
    }
    // The quiet zone: a strip 0.4 of a cell outside the border, three points along each cell.
    var quiet: [(SIMD2<Double>, Double)] = []
    quiet.reserveCapacity(4 * (n + 2))
    for i in 0..<(n + 2) {
      let t = Double(i) + 0.5
      for side in 0..<4 {
        let (centre, along): (SIMD2<Double>, SIMD2<Double>) =
          switch side {
          case 0: (SIMD2(t, -0.4), SIMD2(1, 0))
          case 1: (SIMD2(t, across + 0.4), SIMD2(1, 0))
          case 2: (SIMD2(-0.4, t), SIMD2(0, 1))
          default: (SIMD2(across + 0.4, t), SIMD2(0, 1))
          }
        if let level = levels(count: 3, { centre + along * pattern[$0] })?.mean {
          quiet.append((centre, level))
        }
      }
    }
    guard border.count * 2 >= 4 * (n + 1) else { return nil }
    guard
      let reading = Self.judge(
        data: data, border: border, quiet: quiet, size: n, gridNearlyOnEdges: &gridNearlyOnEdges)
    else { return nil }
    self.size = n
    (confidence, decisionMargin, contrast) = reading
    self.split = Double(spreads.filter { $0 > reading.contrast / 2 }.count) / Double(spreads.count)
  }

  /// The data cells judged against the local threshold, with the decision margin and the
  /// contrast; nil when the border is not dark or the quiet zone not light by that threshold.
  private static func judge(
    data: [(SIMD2<Double>, Double)], border: [(SIMD2<Double>, Double)], quiet: [(SIMD2<Double>, Double)],
    size n: Int, gridNearlyOnEdges: inout Bool
  ) -> (confidence: [Double], margin: Double, contrast: Double)? {
    // A first split of every level by Otsu's threshold picks the cells each model is fitted to.
    guard let split = MarkerDetector.otsu((data + border + quiet).map(\.1)) else { return nil }
    let dark = border.filter { $0.1 <= split } + data.filter { $0.1 <= split }
    let light = quiet.filter { $0.1 > split } + data.filter { $0.1 > split }
    guard !dark.isEmpty, !light.isEmpty else { return nil }
    let black = LevelPlane(fitting: dark), white = LevelPlane(fitting: light)
    let centre = SIMD2(repeating: Double(n + 2) / 2)
    let contrast = white.level(at: centre) - black.level(at: centre)
    guard contrast > 0 else { return nil }
    func threshold(_ p: SIMD2<Double>) -> Double { (white.level(at: p) + black.level(at: p)) / 2 }
    func half(_ p: SIMD2<Double>) -> Double {
      Swift.max((white.level(at: p) - black.level(at: p)) / 2, contrast / 8)
    }
    // The border dark and the quiet zone light, as a marker's are: at most a fifth of either
    // on the wrong side (a glint, a finger, a neighbour's corner).
    let lightBorder = Double(border.filter { $0.1 > threshold($0.0) }.count) / Double(border.count)
    func darkQuiet() -> Double {
      Double(quiet.filter { $0.1 <= threshold($0.0) }.count) / Double(quiet.count)
    }
    // Either a little beyond its bound, the other within it, as a grid a pixel off a small
    // marker's blurred edges reads them: the quiet zone's strip on the border, or the border
    // light along the sides the grid overhangs (one, or two opposite ones) while two opposite
    // sides read dark between their corners (texture's light cells fall on any side). Judged
    // only for what is refused.
    guard lightBorder <= 0.2 else {
      func dark(_ side: Int) -> Bool {
        !border.contains { Self.isInner($0.0, ofSide: side, size: n) && $0.1 > threshold($0.0) }
      }
      gridNearlyOnEdges =
        lightBorder <= 0.6 && darkQuiet() <= 0.25 && ((dark(0) && dark(2)) || (dark(1) && dark(3)))
      return nil
    }
    let quietDark = darkQuiet()
    guard quietDark <= 0.25 else {
      gridNearlyOnEdges = quietDark <= 0.5
      return nil
    }
    let confidence = data.map { ($0.1 - threshold($0.0)) / half($0.0) }
    var (whiteSum, whiteCount, blackSum, blackCount) = (0.0, 0, 0.0, 0)
    for (p, level) in data {
      let v = level - threshold(p)
      if v > 0 {
        (whiteSum, whiteCount) = (whiteSum + v, whiteCount + 1)
      } else {
        (blackSum, blackCount) = (blackSum - v, blackCount + 1)
      }
    }
    let means = [
      whiteCount > 0 ? whiteSum / Double(whiteCount) : nil,
      blackCount > 0 ? blackSum / Double(blackCount) : nil,
    ]
    let margin = means.compactMap { $0 }.min() ?? 0
    return (confidence, margin, contrast)
  }

  /// Whether the border cell centred at `p` (the marker's grid, cells a unit, the border's
  /// ring from 0 to `n` + 1) lies on side `side` (0 top, 1 right, 2 bottom, 3 left) between
  /// its corners.
  private static func isInner(_ p: SIMD2<Double>, ofSide side: Int, size n: Int) -> Bool {
    let (last, along) = (Double(n + 1) + 0.5, side % 2 == 0 ? p.x : p.y)
    guard along > 0.5, along < last else { return false }
    switch side {
    case 0: return p.y == 0.5
    case 1: return p.x == last
    case 2: return p.y == last
    default: return p.x == 0.5
    }
  }
}

/// A level varying linearly across a marker's grid, `a + b·x + c·y`, fitted by least squares
/// (a constant where the points do not determine a plane).
struct LevelPlane {
  private var coefficients: SIMD3<Double>

  init(fitting points: [(SIMD2<Double>, Double)]) {
    let mean = points.map(\.1).reduce(0, +) / Double(points.count)
    coefficients = SIMD3(mean, 0, 0)
    guard points.count >= 6 else { return }
    // The normal equations of [1 x y]·(a b c) = level.
    var m = Matrix3<Double>.zero, right = SIMD3<Double>.zero
    for (p, level) in points {
      let row = SIMD3(1, p.x, p.y)
      m = m + Matrix3(row * row.x, row * row.y, row * row.z)
      right += row * level
    }
    if let inverse = m.inverse { coefficients = inverse * right }
  }

  func level(at p: SIMD2<Double>) -> Double { coefficients.x + coefficients.y * p.x + coefficients.z * p.y }
}
