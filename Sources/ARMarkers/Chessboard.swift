import ARImage
import ARMath

/// A plain chessboard calibration target, as OpenCV's `findChessboardCorners` takes it: its
/// inner corners (where four squares meet), `columns × rows` of them, `square` metres apart.
public struct Chessboard: Sendable, Equatable {
  /// Inner corners along a row (OpenCV's pattern width).
  public let columns: Int
  /// Inner corners down a column (OpenCV's pattern height).
  public let rows: Int
  /// The squares' side, metres.
  public let square: Double

  /// A board of `columns × rows` inner corners (at least 2 × 2), squares `square` metres.
  public init?(columns: Int, rows: Int, square: Double) {
    guard (2...1000).contains(columns), (2...1000).contains(rows), square > 0, square.isFinite else {
      return nil
    }
    (self.columns, self.rows, self.square) = (columns, rows, square)
  }

  /// A board from its command-line specification `chessboard:COLSxROWS:SQUARE`: inner corners
  /// (as OpenCV's pattern size counts them) and the square's side in metres.
  ///
  /// - Throws: ``MarkerBoardError`` naming the part of the specification at fault.
  public init(specification: String) throws(MarkerBoardError) {
    let parts = specification.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, parts[0] == "chessboard" else {
      throw MarkerBoardError(
        part: "kind", reason: "'\(specification.prefix(60))' is not chessboard:COLSxROWS:SQUARE")
    }
    let (columns, rows) = try MarkerBoardError.size(parts[1], from: 2, of: "COLSxROWS inner corners")
    guard let square = Double(parts[2]), square > 0, square <= 100, square.isFinite else {
      throw MarkerBoardError(
        part: "square length",
        reason: "'\(parts[2].prefix(60))' is not a length in metres above 0, at most 100")
    }
    self.init(columns: columns, rows: rows, square: square)!
  }

  /// The inner corners in the board's plane, metres, row by row from the first corner: x along
  /// a row, y down the columns.
  public var corners: [SIMD2<Double>] {
    (0..<rows).flatMap { y in (0..<columns).map { x in SIMD2(Double(x), Double(y)) * square } }
  }

  /// The board's inner corners in `image` (ARScene's pixel convention), in the order of
  /// ``corners``, or nil unless every one of them is found.
  ///
  /// X-junctions are found by their ChESS response at full resolution and, for boards whose
  /// squares are large, at halved resolutions; the grid is grown from a strong junction to its
  /// neighbours, each predicted from the steps already taken (so perspective and lens
  /// distortion bend it freely); a grid of exactly `columns × rows` (or `rows × columns`) is the
  /// board. Its corners are then refined to the saddle of the gradients (OpenCV's
  /// `cornerSubPix`) in a window reaching a third of the local square each side. The first corner is one of the
  /// board's four ends: the order runs so that x, y and the view direction make a right-handed
  /// frame, as the board's plane seen from its printed side.
  public func find(in image: RGBA8Image) -> [SIMD2<Double>]? {
    var grey = GreyImage(image), scale = 1.0
    let full = grey
    while Swift.min(grey.width, grey.height) >= 24 {
      let candidates = grey.saddleCandidates()
      if let grid = ChessboardGrid(
        candidates: candidates.map { $0.point * scale }, responses: candidates.map(\.response),
        columns: columns,
        rows: rows)
      {
        return grid.refined(in: full)
      }
      grey = grey.halved
      scale *= 2
    }
    return nil
  }
}

/// A chessboard's inner corners organised as a grid: `cells[row * columns + column]`.
struct ChessboardGrid {
  var cells: [SIMD2<Double>]
  let columns: Int, rows: Int

  /// The `columns × rows` grid the candidates (strongest first, with their `responses`) form,
  /// grown from each of the strongest few in turn; nil when none grows into that grid.
  init?(candidates: [SIMD2<Double>], responses: [Float], columns: Int, rows: Int) {
    guard candidates.count >= columns * rows else { return nil }
    var tried = Set<Int>()
    for seed in candidates.indices.prefix(40) where !tried.contains(seed) {
      guard let sheared = Self.grow(from: seed, candidates) else { continue }
      tried.formUnion(sheared.values)
      let grown = Self.unsheared(sheared)
      if let grid = Self.arranged(
        Self.board(in: grown, responses, columns: columns, rows: rows), candidates, columns: columns,
        rows: rows)
      {
        self = grid
        return
      }
    }
    return nil
  }

  private init(cells: [SIMD2<Double>], columns: Int, rows: Int) {
    (self.cells, self.columns, self.rows) = (cells, columns, rows)
  }

  /// The candidates reachable from `seed` in steps of the grid, by their (column, row) from it.
  static func grow(from seed: Int, _ points: [SIMD2<Double>]) -> [SIMD2<Int>: Int]? {
    let origin = points[seed]
    let byDistance = points.indices.filter { $0 != seed }.sorted {
      (points[$0] - origin).lengthSquared < (points[$1] - origin).lengthSquared
    }
    guard let first = byDistance.first else { return nil }
    let a = points[first] - origin
    // The second axis: the nearest neighbour well away from the first's line.
    guard
      let second = byDistance.dropFirst().first(where: { i in
        let b = points[i] - origin
        let cosine = (a * b).sum() / (a.length * b.length)
        return abs(cosine) < 0.6 && b.length < 2 * a.length
      })
    else { return nil }
    let b = points[second] - origin
    var grid: [SIMD2<Int>: Int] = [.zero: seed, SIMD2(1, 0): first, SIMD2(0, 1): second]
    var used: Set<Int> = [seed, first, second]
    var queue: [SIMD2<Int>] = [.zero, SIMD2(1, 0), SIMD2(0, 1)]
    var head = 0
    let steps = [SIMD2(1, 0), SIMD2(-1, 0), SIMD2(0, 1), SIMD2(0, -1)]
    while head < queue.count {
      let cell = queue[head]
      head += 1
      let here = points[grid[cell]!]
      for d in steps where grid[cell &+ d] == nil {
        let step = Self.step(d, at: cell, grid, points) ?? (d.x != 0 ? a * Double(d.x) : b * Double(d.y))
        let predicted = here + step
        let reach = 0.35 * step.length
        var best: (index: Int, distance: Double)?
        for (i, p) in points.enumerated() where !used.contains(i) {
          let distance = (p - predicted).length
          if distance < reach, distance < best?.distance ?? .infinity { best = (i, distance) }
        }
        guard let best else { continue }
        grid[cell &+ d] = best.index
        used.insert(best.index)
        queue.append(cell &+ d)
        guard grid.count <= 1_000_000 else { return nil }
      }
    }
    return grid
  }

  /// The grown cells in the grid's own axes. Growth starts from the seed's nearest neighbour
  /// and the nearest off its line, which in a view along a board (squares foreshortened to
  /// half their width) can be a diagonal neighbour: the cells then lie on a sheared lattice,
  /// a board of 10 × 7 spread over 16 × 7 keys. Shears of one axis along the other are undone
  /// while one makes the keys' box smaller (a lattice's basis reduced, in whole steps).
  static func unsheared(_ grown: [SIMD2<Int>: Int]) -> [SIMD2<Int>: Int] {
    var keys = Array(grown.keys)
    let values = Array(grown.values)
    func area(_ keys: [SIMD2<Int>]) -> Int {
      let (low, high) = Self.box(of: keys)
      return (high.x - low.x + 1) * (high.y - low.y + 1)
    }
    var best = area(keys)
    // Each round takes the best single shear; a board's keys need one or two.
    for _ in 0..<4 {
      var improved: [SIMD2<Int>]?
      for k in [-3, -2, -1, 1, 2, 3] {
        for sheared in [keys.map { SIMD2($0.x + k * $0.y, $0.y) }, keys.map { SIMD2($0.x, $0.y + k * $0.x) }]
        {
          let a = area(sheared)
          if a < best { (best, improved) = (a, sheared) }
        }
      }
      guard let improved else { break }
      keys = improved
    }
    return Dictionary(uniqueKeysWithValues: zip(keys, values))
  }

  /// The smallest and largest grid keys, each axis on its own.
  static func box(of keys: some Sequence<SIMD2<Int>>) -> (low: SIMD2<Int>, high: SIMD2<Int>) {
    keys.reduce((SIMD2(Int.max, Int.max), SIMD2(Int.min, Int.min))) {
      (pointwiseMin($0.0, $1), pointwiseMax($0.1, $1))
    }
  }

  /// The board's cells among those grown: the fully filled `columns × rows` (or `rows ×
  /// columns`) window of the grid with the strongest responses. Growth can step past the board
  /// onto a junction-like point beside it; the board itself has exactly its own corners.
  static func board(
    in grown: [SIMD2<Int>: Int], _ responses: [Float], columns: Int, rows: Int
  ) -> [SIMD2<Int>: Int] {
    let (low, high) = Self.box(of: grown.keys)
    var best: (window: [SIMD2<Int>: Int], strength: Float)?
    for size in Set([SIMD2(columns, rows), SIMD2(rows, columns)]) {
      guard high.x - low.x + 1 >= size.x, high.y - low.y + 1 >= size.y else { continue }
      for y in low.y...(high.y - size.y + 1) {
        for x in low.x...(high.x - size.x + 1) {
          var window: [SIMD2<Int>: Int] = [:], strength: Float = 0
          for dy in 0..<size.y {
            for dx in 0..<size.x {
              guard let index = grown[SIMD2(x + dx, y + dy)] else { break }
              window[SIMD2(x + dx, y + dy)] = index
              strength += responses[index]
            }
          }
          if window.count == size.x * size.y, strength > best?.strength ?? -.infinity {
            best = (window, strength)
          }
        }
      }
    }
    return best?.window ?? grown
  }

  /// The step from `cell` in direction `d`, from steps the grid has already taken: the one
  /// that led here, changed as it changed from the step before (a board seen at a slant, or
  /// through a wide lens, has its squares shrink and turn along a line: steps of 181, 132 and
  /// then 96 px down a GoPro view's column, where the last step again would land on the next
  /// row but one); or the same step beside it.
  private static func step(
    _ d: SIMD2<Int>, at cell: SIMD2<Int>, _ grid: [SIMD2<Int>: Int], _ points: [SIMD2<Double>]
  ) -> SIMD2<Double>? {
    if let back = grid[cell &- d], let here = grid[cell] {
      let last = points[here] - points[back]
      guard let before = grid[cell &- d &- d] else { return last }
      return Self.continued(last, after: points[back] - points[before])
    }
    let across = d.x != 0 ? [SIMD2(0, 1), SIMD2(0, -1)] : [SIMD2(1, 0), SIMD2(-1, 0)]
    for e in across {
      if let from = grid[cell &+ e], let to = grid[cell &+ e &+ d] { return points[to] - points[from] }
      if let from = grid[cell &+ e &- d], let to = grid[cell &+ e] { return points[to] - points[from] }
    }
    return nil
  }

  /// The step after `last` when the steps along a line change as from `previous` to `last`:
  /// scaled by the ratio of their lengths and turned by the angle between them (perspective
  /// shrinks a line's steps geometrically; a lens bends it). The ratio is held within 0.5–2;
  /// steps turning by more than 30° are taken as noise and `last` repeated, so that one stray
  /// point cannot throw the prediction far.
  static func continued(_ last: SIMD2<Double>, after previous: SIMD2<Double>) -> SIMD2<Double> {
    let (lastLength, previousLength) = (last.length, previous.length)
    guard lastLength > 0, previousLength > 0 else { return last }
    // The turn from `previous` to `last` as a unit vector (cos, sin).
    let turn =
      SIMD2((previous * last).sum(), previous.x * last.y - previous.y * last.x)
      / (lastLength * previousLength)
    guard turn.x >= 0.866 else { return last }
    let ratio = Swift.min(Swift.max(lastLength / previousLength, 0.5), 2)
    return SIMD2(turn.x * last.x - turn.y * last.y, turn.y * last.x + turn.x * last.y) * ratio
  }

  /// The grown cells as the board's grid, turned and flipped into its order; nil unless they
  /// fill exactly `columns × rows` (or `rows × columns`).
  static func arranged(
    _ grown: [SIMD2<Int>: Int], _ points: [SIMD2<Double>], columns: Int, rows: Int
  ) -> ChessboardGrid? {
    let (low, high) = Self.box(of: grown.keys)
    let size = high &- low &+ 1
    guard grown.count == size.x * size.y else { return nil }
    let transposed: Bool
    if size.x == columns && size.y == rows {
      transposed = false
    } else if size.x == rows && size.y == columns {
      transposed = true
    } else {
      return nil
    }
    var cells = [SIMD2<Double>](repeating: .zero, count: columns * rows)
    for (key, index) in grown {
      let local = key &- low
      let (column, row) = transposed ? (local.y, local.x) : (local.x, local.y)
      cells[row * columns + column] = points[index]
    }
    var grid = ChessboardGrid(cells: cells, columns: columns, rows: rows)
    // x along a row, y down a column, and the view into the board right-handed: on the image
    // (y down) x turns clockwise into y.
    let x = grid.cells[columns - 1] - grid.cells[0], y = grid.cells[(rows - 1) * columns] - grid.cells[0]
    if x.x * y.y - x.y * y.x < 0 { grid.flipRows() }
    return grid
  }

  private mutating func flipRows() {
    var flipped = cells
    for row in 0..<rows {
      for column in 0..<columns {
        flipped[row * columns + column] = cells[(rows - 1 - row) * columns + column]
      }
    }
    cells = flipped
  }

  /// Each corner refined to its saddle in `image`, in a window reaching a third of its
  /// nearest neighbour's distance each side (2 to 12 pixels); nil when one does not settle
  /// within that window. On six real calibration sets (640 × 480 to 1920 × 1080, squares of
  /// 20 to 60 px) a third fits every set's views better than a fifth did (RMS 0.16-0.61 px
  /// against 0.18-0.62) and puts fx within 0.3% of OpenCV's `cornerSubPix` and
  /// `calibrateCamera`; beyond it the window takes in the next corners' edges (RMS up to
  /// 0.35 px at 2.5).
  func refined(in image: GreyImage) -> [SIMD2<Double>]? {
    var out: [SIMD2<Double>] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let p = cells[row * columns + column]
        var nearest = Double.infinity
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
          let (c, r) = (column + dx, row + dy)
          guard c >= 0, r >= 0, c < columns, r < rows else { continue }
          nearest = Swift.min(nearest, (cells[r * columns + c] - p).length)
        }
        let half = Int(Swift.min(Swift.max((nearest / 3).rounded(.down), 2), 12))
        guard let q = image.saddle(near: p, halfWindow: half), (q - p).length < Double(half) else {
          return nil
        }
        out.append(q)
      }
    }
    return out
  }
}
