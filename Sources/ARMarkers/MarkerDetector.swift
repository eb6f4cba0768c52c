import ARImage
import ARMath
import ARPose
import CVectorKernels
import Foundation

/// Finds square fiducial markers of one dictionary in an image: adaptive thresholds (the
/// AprilTag library's tile midpoint at full resolution, window means at full or, from 960 px a
/// side, half resolution), dark components' outlines simplified to convex quadrilaterals, each
/// quad's cells read through the homography from the marker's grid against a threshold that
/// follows the light (a plane fitted to the border, one to the quiet zone), the code matched
/// against the dictionary in its four turns within the bits the evidence allows, the corners
/// refined to sub-pixel precision on the image's edges, and one report kept a square.
///
/// A false id is a bug: a reading is accepted only with a dark border in a light quiet zone,
/// a pixel a cell at least, no more corrected bits than the dictionary can afford (OpenCV's and
/// AprilTag's defaults, and beyond the bits whose chance of a false match stays under 10⁻⁴ only
/// where the corrected cells were doubtful), and refined corners unless the code is exact in a
/// dictionary where chance matches are rare. Each marker reports its bits corrected and
/// AprilTag's decision margin.
public struct MarkerDetector: Sendable {
  /// The dictionary whose markers are looked for.
  public let dictionary: MarkerDictionary
  /// The smallest marker looked for, pixels across its black border (8: a tag36h11 of a pixel a
  /// cell, as distant tags in real photographs are).
  public var minimumSide = 8.0
  /// White-on-black markers instead of black-on-white.
  public var inverted = false
  /// The least corner uncertainty reported, pixels.
  public static let smallestCornerSigma = 0.02

  /// Each code's id (the first, should a dictionary repeat a code).
  private let exactIds: [UInt64: Int]

  /// A detector of `dictionary`'s markers, with the defaults above.
  public init(dictionary: MarkerDictionary) {
    self.dictionary = dictionary
    exactIds = Dictionary(zip(dictionary.codes, dictionary.codes.indices)) { first, _ in first }
  }

  /// The markers in `image`, sorted by id (then by position).
  public func detect(_ image: RGBA8Image) -> [DetectedMarker] {
    detect(grey: GreyImage(image, inverted: inverted))
  }

  /// The markers in an image of 8-bit `luma` (a JPEG's Y channel, as
  /// `ImageFile.readLuma` reads it: no colours decoded), sorted by id (then by position).
  public func detect(luma: Image<UInt8>) -> [DetectedMarker] {
    detect(grey: GreyImage(luma: luma, inverted: inverted))
  }

  /// The markers in `grey`, which is recycled.
  private func detect(grey: GreyImage) -> [DetectedMarker] {
    let side = min(grey.width, grey.height)
    // Small markers' outlines from the tile midpoint rule at full resolution (a window's mean
    // beside a lighter surface darkens their margins and joins them to their neighbours);
    // larger markers' from window means of a 24th and an 8th of the image's side.
    var windows: [DarkRule] = []
    for w in [side / 24, side / 8] where w >= 3 && !windows.contains(.windowMean(w | 1)) {
      windows.append(.windowMean(w | 1))
    }
    // The outlines: the midpoint rule at full resolution in one task, the windows in others.
    // From 960 px a side both windows run at half the resolution, in one task (the halving
    // inside it: nothing serial before them). Below, the larger window runs at full
    // resolution in a task of its own (a competition field's 18-35 px tags under stage light
    // only it outlines well) and the smaller at half from 480 px, where it needs no more than
    // 20 px markers. Cells and corners are always read at full resolution.
    let halving = !windows.isEmpty && side >= 960
    let tasks: [[(rule: DarkRule, half: Bool)]] =
      halving
      ? [[(.tileMidpoint, false)], windows.map { ($0, true) }]
      : [[(.tileMidpoint, false)]]
        + windows.enumerated().map { [($1, $0 == 0 && windows.count > 1 && side >= 480)] }
    // The tasks start costliest first (a full-resolution window, then the midpoint rule, then
    // those at half resolution), so the last to start is a short one: with three tasks on two
    // cores, the window started last ran alone after the others, a third of a photo's time.
    let startOrder = tasks.indices.sorted { Self.cost(of: tasks[$0]) > Self.cost(of: tasks[$1]) }
    let minimumSide = minimumSide
    let finders = tasks.map { rules in
      { @Sendable () -> [[[SIMD2<Double>]]] in
        guard rules.contains(where: \.half) else {
          return rules.map { grey.quads($0.rule, minimumSide: minimumSide) }
        }
        let least = max(minimumSide, halving ? 40 : 20) / 2
        // Halving a large image thins a marker's border to a pixel or two, where it breaks:
        // outlines that run in through the gap give their convex hulls' quadrilaterals. (Not
        // below 960 px a side, where the full-resolution rules outline such markers whole:
        // there the hulls only added reads, 5% of a competition-field photo's time.)
        return grey.halvedQuads(rules.map(\.rule), minimumSide: least, hulls: halving).map {
          $0.map { $0.map { $0 * 2 } }
        }
      }
    }
    // Each task's rules in reading order: the tasks' rules one after another.
    var rulesOf: [[Int]] = [], first = 0
    for rules in tasks {
      rulesOf.append(Array(first..<first + rules.count))
      first += rules.count
    }
    let readings = CandidateReadings(
      tasks: finders, rulesOf: rulesOf, startOrder: startOrder, read: { read($0, in: grey) }
    ).readings
    grey.recycle()
    let found = Self.resolvingOverlaps(readings)
    return found.sorted {
      ($0.id, $0.corners[0].y, $0.corners[0].x) < ($1.id, $1.corners[0].y, $1.corners[0].x)
    }
  }

  /// The marker a quadrilateral holds, if its cells decode and the evidence supports the id
  /// for this dictionary: at least a pixel a cell on every side, a dark border and a light
  /// quiet zone (``MarkerCells``), no more corrected bits than the dictionary allows, and,
  /// unless the reading is strong (an exact code of a dictionary in which chance matches are
  /// rare), refined corners that stay within two cells and a half pixel of the outline (traced on
  /// thresholded pixels, it can sit a pixel or two off the edges).
  func read(_ quad: [SIMD2<Double>], in grey: GreyImage) -> DetectedMarker? {
    let across = Double(dictionary.size + 2)
    let sides = (0..<4).map { (quad[($0 + 1) % 4] - quad[$0]).length }
    guard sides.min()! >= across else { return nil }
    let cell = sides.reduce(0, +) / 4 / across
    let outline = quad
    var quad = quad
    // The outline's cells, read once: decoded, and judged two-toned below.
    var nearlyReadable = false
    let cells = MarkerCells(quad, size: dictionary.size, in: grey, gridNearlyOnEdges: &nearlyReadable)
    var readable = cells != nil
    var code = cells.flatMap { decode($0) }
    // A side along the image's edge: the marker may be cut there, its border outside. Its
    // cells are read again with that side pushed out by a half and by a whole cell (a border's
    // width: more would put data cells outside), kept only when the cells along that side
    // read clearly (a grid misplaced by part of a cell blurs two columns into one); its
    // corners there are estimated (`truncated`).
    let cut = Self.sideOnEdge(of: quad, width: Double(grey.width), height: Double(grey.height))
    if let side = cut {
      for reach in [0.5, 1.0] where code?.distance != 0 {
        let pushed = Self.pushing(quad, side: side, by: reach * cell)
        if let cells = MarkerCells(pushed, size: dictionary.size, in: grey), cells.clear(along: side),
          let again = decode(cells), again.distance < (code?.distance ?? .max)
        {
          (quad, code) = (pushed, again)
        }
      }
    }
    // Corners refined for a second reading, kept with it where the refinement moved none of
    // them by more than a pixel: refined again, such corners move by less than the
    // refinement's own scatter, for the cost of a whole refinement. Corners moved further (a
    // sliver's tip estimated beyond the photo) move on when refined again.
    var refinedForReading: (corners: [SIMD2<Double>], sigma: Double?, edgeWidth: Double)?
    if (code == nil && (readable || nearlyReadable)
      && (cell < Self.smallCell || cells.map(Self.twoToned) == true))
      || (code?.distance ?? 0) > 0
    {
      // An outline traced on the thresholded pixels can sit a pixel or two off the marker's
      // edges, a good part of a small marker's cell: a small marker's cells, or a reading with
      // bits corrected, are read again between refined corners, and that reading kept when it
      // is nearer a code; also a small marker's refused only for a quiet zone or a border a
      // little past its bound, as an outline a pixel off its blurred edges reads them (a
      // Duckietown sign's tag seen edge-on, 17 px tall, that OpenCV finds; a 16 px tag on a
      // light switch in a hallway, that AprilTag finds). So are a larger marker's whose data
      // cells hold both colours: an outline traced round a curved border (a sheet bent over a
      // cylinder) puts its corners half a cell off. (Every unread candidate refined would double a ChArUco photo's time:
      // its chessboard squares are dark squares in light, one colour inside.)
      let refined = grey.refinedCorners(quad, cell: cell)
      if refined.sigma != nil || cell < Self.smallCell,
        let again = decode(refined.corners, in: grey, readable: &readable),
        again.distance < (code?.distance ?? .max)
      {
        let settled = zip(refined.corners, quad).allSatisfy { ($0 - $1).length <= 1 }
        (quad, code, refinedForReading) = (refined.corners, again, settled ? refined : nil)
      }
    }
    guard let best = code else { return nil }
    // A grid of the wrong size cuts across the marker's own cells (a 6×6 marker read as a 4×4
    // or 16h5 one, an exact match by chance for a weak dictionary): 0.69-0.94 of its cells then
    // straddle a black-white edge, where a sharp marker's own grid leaves a third at most. Weak
    // dictionaries are held to half; a strong one's chance matches are rare, and blur makes a
    // small or moving marker's cells straddle too (up to 0.78 on a competition field).
    guard !dictionary.isWeak || best.split <= 0.5 else { return nil }
    // And a weak dictionary's cells clearly two-toned: a printed marker's sit about half the
    // contrast from their threshold (0.45-0.5 on real photographs), a pictogram's less (a box's
    // "fragile" glass read as 4×4_50 id 17: 0.35).
    guard !dictionary.isWeak || best.margin >= 0.4 * best.contrast else { return nil }
    let refined = refinedForReading ?? grey.refinedCorners(quad, cell: cell)
    let fitted =
      refined.sigma != nil && zip(refined.corners, outline).allSatisfy { ($0 - $1).length <= 1.5 + 2 * cell }
    // Corners left at the outline (integer, unrefined) are what false ids had in common: only
    // an exact code of a dictionary in which chance matches are rare goes without refined ones.
    let strong = best.distance == 0 && !dictionary.isWeak
    guard strong || fitted else { return nil }
    let corners = (0..<4).map { refined.corners[($0 + best.turn) % 4] }
    // A corner outside the image (a marker cut at its corner) is estimated too.
    let beyond = corners.contains {
      !GreyImage.isInside($0, width: Double(grey.width), height: Double(grey.height))
    }
    // Blur also moves an edge by more than its points' scatter shows (the next cells' levels
    // reach into a wide edge's profile): a twentieth of a pixel per pixel of width beyond a
    // sharp edge's one, measured on motion-blurred frames rendered with known truth. And no
    // less than 8-bit levels and a real lens allow, even for a perfect drawn edge.
    let blurred = 0.05 * Swift.max(0, refined.edgeWidth - 1)
    let sigma = refined.sigma.map {
      Swift.max(Self.smallestCornerSigma, ($0 * $0 + blurred * blurred).squareRoot())
    }
    return DetectedMarker(
      id: best.id, corners: corners, hamming: best.distance, cornerSigma: sigma, decisionMargin: best.margin,
      truncated: cut != nil || beyond)
  }

  /// Whether `cells` hold both colours, as every code does (a plain dark square's are all
  /// dark).
  static func twoToned(_ cells: MarkerCells) -> Bool {
    cells.confidence.contains { $0 > 0 } && cells.confidence.contains { $0 <= 0 }
  }

  /// The side of `quad` (from corner i to i + 1) lying along the image's edge, both its ends
  /// within 1.5 px of the same edge of an image `width` × `height`, if any.
  static func sideOnEdge(of quad: [SIMD2<Double>], width: Double, height: Double) -> Int? {
    /// The edges `p` lies near, one bit each (left, top, right, bottom): every candidate asks.
    func near(_ p: SIMD2<Double>) -> Int {
      (p.x <= 1.5 ? 1 : 0) | (p.y <= 1.5 ? 2 : 0) | (p.x >= width - 1.5 ? 4 : 0)
        | (p.y >= height - 1.5 ? 8 : 0)
    }
    return (0..<4).first { i in near(quad[i]) & near(quad[(i + 1) % 4]) != 0 }
  }

  /// `quad` with side `side` (corner i to i + 1) moved `distance` pixels outwards, its corners
  /// sliding along the neighbouring sides.
  static func pushing(_ quad: [SIMD2<Double>], side: Int, by distance: Double) -> [SIMD2<Double>] {
    var quad = quad
    let (a, b) = (side, (side + 1) % 4)
    let (beforeA, afterB) = (quad[(side + 3) % 4], quad[(side + 2) % 4])
    quad[a] += (quad[a] - beforeA).normalizedOrNil().map { $0 * distance } ?? .zero
    quad[b] += (quad[b] - afterB).normalizedOrNil().map { $0 * distance } ?? .zero
    return quad
  }

  /// A candidate task's relative cost: a full-resolution window's sliding sums and its many
  /// outlines (1.4-2.3 ms on a 799 × 533 photo) above the midpoint rule's tiles (0.7-1.1 ms),
  /// above rules run at half resolution (0.3-1 ms together).
  static func cost(of task: [(rule: DarkRule, half: Bool)]) -> Int {
    task.reduce(0) { total, step in
      switch (step.rule, step.half) {
      case (_, true): total + 1
      case (.tileMidpoint, false): total + 2
      case (.windowMean, false): total + 3
      }
    }
  }

  /// Cells smaller than this (pixels) are read again between refined corners when the outline's
  /// corners do not decode, even where the refinement did not converge.
  static let smallCell = 4.0

  /// The dictionary's code the quadrilateral's cells hold, with the quarter turns from the
  /// quad's corner 0 to the marker's top-left corner and the cells' decision margin: the
  /// nearest code, if it is the only one that near and within the bits the dictionary allows
  /// (``MarkerDictionary/safeCorrections`` whatever the cells' confidence, up to
  /// ``MarkerDictionary/correctionLimit`` where every corrected cell was near its threshold).
  func decode(_ quad: [SIMD2<Double>], in grey: GreyImage, readable: inout Bool) -> (
    id: Int, distance: Int, turn: Int, margin: Double, split: Double, contrast: Double
  )? {
    guard let cells = MarkerCells(quad, size: dictionary.size, in: grey) else { return nil }
    readable = true
    return decode(cells)
  }

  /// The dictionary's code `cells` hold, as ``decode(_:in:readable:)`` finds it.
  func decode(_ cells: MarkerCells) -> (
    id: Int, distance: Int, turn: Int, margin: Double, split: Double, contrast: Double
  )? {
    let n = dictionary.size
    let bits = cells.bits
    // The code in each of its four turns: turn k reads the grid turned k quarter turns
    // clockwise, so the marker's top-left corner is the quad's corner k.
    let turned = (0..<4).map { turn in
      var code: UInt64 = 0
      for r in 0..<n {
        for c in 0..<n { code = code << 1 | (bits[Self.cellIndex(r, c, turn: turn, size: n)] ? 1 : 0) }
      }
      return code
    }
    // An exact code, as most readings of real markers are, is looked up: the first turn that
    // holds one, as the search below would find it.
    for (turn, code) in turned.enumerated() {
      if let id = exactIds[code] {
        return (id, 0, turn, cells.decisionMargin, cells.split, cells.contrast)
      }
    }
    // The nearest code within the bits the dictionary allows, searched in C where the CPU's
    // POPCNT instruction counts bits (the portable Swift build has none).
    var match = arscene_code_match()
    dictionary.codes.withUnsafeBufferPointer { codes in
      arscene_nearest_code(codes.baseAddress, codes.count, turned, Int32(dictionary.correctionLimit), &match)
    }
    guard match.id >= 0 else { return nil }
    let best = (
      id: match.id, distance: Int(match.distance), turn: Int(match.turn),
      code: dictionary.codes[match.id] ^ turned[Int(match.turn)]
    )
    let tied = match.tied != 0
    guard !tied || best.distance == 0 else { return nil }
    if best.distance > dictionary.safeCorrections {
      // Every corrected cell must have been a doubtful one.
      for k in 0..<(n * n) where best.code >> UInt64(n * n - 1 - k) & 1 == 1 {
        let index = Self.cellIndex(k / n, k % n, turn: best.turn, size: n)
        guard abs(cells.confidence[index]) < 0.5 else { return nil }
      }
    }
    return (best.id, best.distance, best.turn, cells.decisionMargin, cells.split, cells.contrast)
  }

  /// The index in the quad's cells (row by row) of the marker's cell (`r`, `c`) as drawn, seen
  /// in the quad turned `turn` quarter turns.
  @inline(__always)
  static func cellIndex(_ r: Int, _ c: Int, turn: Int, size n: Int) -> Int {
    switch turn {
    case 0: r * n + c
    case 1: c * n + (n - 1 - r)
    case 2: (n - 1 - r) * n + (n - 1 - c)
    default: (n - 1 - c) * n + r
    }
  }

  /// Otsu's threshold over `values` (0…255): the split with the largest between-class variance.
  static func otsu(_ values: [Double]) -> Double? {
    let sorted = values.sorted()
    guard let low = sorted.first, let high = sorted.last, high - low > 20 else { return nil }
    var best = (variance: -1.0, threshold: (low + high) / 2)
    let total = sorted.reduce(0, +)
    var below = 0.0
    for k in 0..<(sorted.count - 1) {
      below += sorted[k]
      let (n0, n1) = (Double(k + 1), Double(sorted.count - k - 1))
      let (m0, m1) = (below / n0, (total - below) / n1)
      let variance = n0 * n1 * (m0 - m1) * (m0 - m1)
      if variance > best.variance { best = (variance, (sorted[k] + sorted[k + 1]) / 2) }
    }
    return best.threshold
  }
}
