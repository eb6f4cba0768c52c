/// A printed board of markers, laid out as OpenCV lays it out: a grid of markers (`GridBoard`)
/// or a chessboard with markers in its white squares (`CharucoBoard`, in OpenCV's current
/// pattern or, for boards printed before OpenCV 4.6, its legacy one). Board coordinates are in
/// the board's plane, metres: x to the right, y down, from the top-left corner of the
/// first marker (a grid) or square (a ChArUco board); marker ids run row by row from 0.
public struct MarkerBoard: Sendable, Equatable {
  /// How the board's markers are laid out; lengths in metres.
  public enum Layout: Sendable, Equatable {
    /// `columns × rows` markers of side `markerLength`, `separation` apart.
    case grid(columns: Int, rows: Int, markerLength: Double, separation: Double)
    /// `columns × rows` chessboard squares of side `squareLength`, the top-left one black, a
    /// marker of side `markerLength` centred in each white one.
    case charuco(columns: Int, rows: Int, squareLength: Double, markerLength: Double)
  }

  /// The board's layout.
  public let layout: Layout
  /// The dictionary its markers come from, ids from 0 row by row.
  public let dictionary: MarkerDictionary
  /// A ChArUco board in OpenCV's legacy pattern (`setLegacyPattern(true)`, the only one before
  /// OpenCV 4.6): with an even number of rows its top-left square is white and holds marker 0.
  /// The current pattern's top-left square is always black; with an odd number of rows the
  /// two are the same.
  public let legacyPattern: Bool

  /// A board of `layout` with `dictionary`'s markers, as given (no checks).
  init(layout: Layout, dictionary: MarkerDictionary, legacyPattern: Bool = false) {
    self.layout = layout
    self.dictionary = dictionary
    self.legacyPattern = legacyPattern
  }

  /// The first column of ChArUco row `row` whose square is white (holds a marker): 1 where the
  /// top-left square is black, else 0, alternating row by row.
  func firstWhiteColumn(row: Int) -> Int {
    guard case .charuco(_, let rows, _, _) = layout else { return 0 }
    let topLeftWhite = legacyPattern && rows % 2 == 0
    return (row + (topLeftWhite ? 0 : 1)) % 2
  }

  /// The number of markers on the board.
  public var markerCount: Int {
    switch layout {
    case .grid(let columns, let rows, _, _): columns * rows
    case .charuco(let columns, let rows, _, _): columns * rows / 2
    }
  }

  /// Marker `id`'s corners in the board's plane (top-left, top-right, bottom-right,
  /// bottom-left: the detector's order), or nil for an id not on the board.
  public func markerCorners(id: Int) -> [SIMD2<Double>]? {
    guard id >= 0, id < markerCount else { return nil }
    let origin: SIMD2<Double>, side: Double
    switch layout {
    case .grid(let columns, _, let length, let separation):
      origin = SIMD2(Double(id % columns), Double(id / columns)) * (length + separation)
      side = length
    case .charuco(let columns, _, let square, let length):
      // White squares, row by row, alternating with the black ones.
      var row = 0, rest = id
      while true {
        let first = firstWhiteColumn(row: row)
        let inRow = (columns - first + 1) / 2
        if rest < inRow {
          origin =
            SIMD2(Double(first + 2 * rest), Double(row)) * square + SIMD2(repeating: (square - length) / 2)
          break
        }
        rest -= inRow
        row += 1
      }
      side = length
    }
    return [origin, origin + SIMD2(side, 0), origin + SIMD2(side, side), origin + SIMD2(0, side)]
  }

  /// A board from its command-line specification: `grid:COLSxROWS:MARKER:SEPARATION:DICTIONARY`
  /// or `charuco:COLSxROWS:SQUARE:MARKER:DICTIONARY` (lengths in metres), the latter with
  /// `:legacy` after it for OpenCV's legacy pattern (``legacyPattern``).
  ///
  /// - Throws: ``MarkerBoardError`` naming the part of the specification at fault.
  public init(specification: String) throws(MarkerBoardError) {
    let parts = specification.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 5 || (parts.count == 6 && parts[0] == "charuco"),
      parts[0] == "grid" || parts[0] == "charuco"
    else {
      throw MarkerBoardError(
        part: "kind",
        reason:
          "'\(specification.prefix(60))' is not grid:COLSxROWS:MARKER:SEPARATION:DICTIONARY or charuco:COLSxROWS:SQUARE:MARKER:DICTIONARY[:legacy]"
      )
    }
    guard parts.count == 5 || parts[5] == "legacy" else {
      throw MarkerBoardError(
        part: "pattern", reason: "'\(parts[5].prefix(60))' is not legacy (OpenCV's pattern before 4.6)")
    }
    legacyPattern = parts.count == 6
    let (columns, rows) = try MarkerBoardError.size(parts[1], from: 1, of: "COLSxROWS")
    func length(_ text: String, _ name: String, allowingZero: Bool = false) throws(MarkerBoardError) -> Double
    {
      guard let value = Double(text), value.isFinite, allowingZero ? value >= 0 : value > 0, value <= 100
      else {
        throw MarkerBoardError(
          part: name,
          reason:
            "'\(text.prefix(60))' is not a length in metres \(allowingZero ? "of at least 0" : "above 0"), at most 100"
        )
      }
      return value
    }
    guard let dictionary = MarkerDictionary.named(parts[4]) else {
      throw MarkerBoardError(
        part: "dictionary", reason: "'\(parts[4].prefix(60))' is not a dictionary ARScene knows")
    }
    if parts[0] == "grid" {
      layout = .grid(
        columns: columns, rows: rows, markerLength: try length(parts[2], "marker length"),
        separation: try length(parts[3], "separation", allowingZero: true))
    } else {
      let square = try length(parts[2], "square length"), marker = try length(parts[3], "marker length")
      guard marker < square else {
        throw MarkerBoardError(
          part: "marker length", reason: "\(marker) m is not smaller than the square, \(square) m")
      }
      guard columns >= 2, rows >= 2 else {
        throw MarkerBoardError(part: "size", reason: "a ChArUco board has at least 2×2 squares")
      }
      layout = .charuco(columns: columns, rows: rows, squareLength: square, markerLength: marker)
    }
    self.dictionary = dictionary
    guard markerCount <= dictionary.codes.count else {
      throw MarkerBoardError(
        part: "dictionary",
        reason: "\(dictionary.name) has \(dictionary.codes.count) markers; the board needs \(markerCount)")
    }
  }
}

/// Why a board specification is refused: the part at fault and why.
public struct MarkerBoardError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The part at fault (`layout`, `dictionary`, …).
  public var part: String
  /// Why it is refused.
  public var reason: String

  public var description: String { "\(part): \(reason)" }

  /// A specification's `COLSxROWS` part, each from `minimum` to 1000; `what` names it in the
  /// error.
  static func size(_ text: String, from minimum: Int, of what: String) throws(MarkerBoardError) -> (Int, Int)
  {
    let size = text.lowercased().split(separator: "x").map { Int($0) }
    guard size.count == 2, let columns = size[0], let rows = size[1], (minimum...1000).contains(columns),
      (minimum...1000).contains(rows)
    else {
      throw MarkerBoardError(
        part: "size", reason: "'\(text.prefix(60))' is not \(what) (\(minimum) to 1000 each)")
    }
    return (columns, rows)
  }
}
