import ARImage
import ARMath
import ARPose
import Foundation

/// Finds square fiducial markers of one dictionary in an image: adaptive thresholds (the
/// AprilTag library's tile midpoint at full resolution, window means at half), dark
/// components' outlines simplified to convex quadrilaterals, each quad's cells read through the
/// homography from the marker's grid, the code matched against the dictionary in its four turns
/// within the bits it corrects, and the corners refined to sub-pixel precision on the image's
/// edges.
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

  /// A detector of `dictionary`'s markers, with the defaults above.
  public init(dictionary: MarkerDictionary) { self.dictionary = dictionary }

  /// The markers in `image`, sorted by id (then by position).
  public func detect(_ image: RGBA8Image) -> [DetectedMarker] {
    let grey = GreyImage(image, inverted: inverted)
    var found: [DetectedMarker] = []
    let side = min(grey.width, grey.height)
    // Small markers' outlines from the tile midpoint rule at full resolution (a window's mean
    // beside a lighter surface darkens their margins and joins them to their neighbours);
    // larger markers' from window means of a 24th and an 8th of the image's side.
    var windows: [DarkRule] = []
    for w in [side / 24, side / 8] where w >= 3 && !windows.contains(.windowMean(w | 1)) {
      windows.append(.windowMean(w | 1))
    }
    // The larger windows' outlines are found as well at half the resolution; their cells and
    // corners are still read at full resolution. The midpoint rule at full resolution on one
    // core, the windows at half on the other (the halving inside its task: nothing serial
    // before them); merged in the tasks' order, so the result does not depend on the threads.
    let halving = !windows.isEmpty && side >= 480
    let tasks: [[DarkRule]] = halving ? [[.tileMidpoint], windows] : [[.tileMidpoint]] + windows.map { [$0] }
    let perTask = Self.concurrentMap(Array(tasks.enumerated())) { k, rules -> [[DetectedMarker]] in
      guard k > 0, halving else {
        return rules.map { rule in
          grey.quads(rule, minimumSide: minimumSide).compactMap { read($0, in: grey) }
        }
      }
      let half = grey.halved
      defer { half.recycle() }
      return rules.map { rule in
        half.quads(rule.halved, minimumSide: max(minimumSide, 40) / 2).compactMap {
          read($0.map { $0 * 2 }, in: grey)
        }
      }
    }
    grey.recycle()
    for markers in perTask.joined() {
      for marker in markers {
        // The same marker from another window: keep the one with fewer corrected bits.
        if let k = found.firstIndex(where: {
          $0.id == marker.id && ($0.corners[0] - marker.corners[0]).length < 4
        }) {
          if marker.hamming < found[k].hamming { found[k] = marker }
        } else {
          found.append(marker)
        }
      }
    }
    return found.sorted {
      ($0.id, $0.corners[0].y, $0.corners[0].x) < ($1.id, $1.corners[0].y, $1.corners[0].x)
    }
  }

  /// The marker a quadrilateral holds, if its cells decode.
  func read(_ quad: [SIMD2<Double>], in grey: GreyImage) -> DetectedMarker? {
    let across = Double(dictionary.size + 2)
    var perimeter = 0.0
    for i in 0..<4 { perimeter += (quad[(i + 1) % 4] - quad[i]).length }
    let cell = perimeter / 4 / across
    var quad = quad
    var code = decode(quad, in: grey)
    if code == nil, cell < Self.smallCell {
      // A small marker's outline, traced on the thresholded pixels, can sit a pixel off its
      // edges, and a pixel is half a cell: its cells are read again between refined corners.
      quad = grey.refinedCorners(quad, cell: cell).corners
      code = decode(quad, in: grey)
    }
    guard let best = code else { return nil }
    let refined = grey.refinedCorners(quad, cell: cell)
    let corners = (0..<4).map { refined.corners[($0 + best.turn) % 4] }
    // Blur also moves an edge by more than its points' scatter shows (the next cells' levels
    // reach into a wide edge's profile): a twentieth of a pixel per pixel of width beyond a
    // sharp edge's one, measured on motion-blurred frames rendered with known truth. And no
    // less than 8-bit levels and a real lens allow, even for a perfect drawn edge.
    let blurred = 0.05 * max(0, refined.edgeWidth - 1)
    let sigma = refined.sigma.map {
      max(Self.smallestCornerSigma, ($0 * $0 + blurred * blurred).squareRoot())
    }
    return DetectedMarker(id: best.id, corners: corners, hamming: best.distance, cornerSigma: sigma)
  }

  /// Cells smaller than this (pixels) are read again between refined corners when the outline's
  /// corners do not decode.
  static let smallCell = 4.0

  /// The dictionary's code the quadrilateral's cells hold (the best within the bits the
  /// dictionary corrects), with the quarter turns from the quad's corner 0 to the marker's
  /// top-left corner.
  func decode(_ quad: [SIMD2<Double>], in grey: GreyImage) -> (id: Int, distance: Int, turn: Int)? {
    let n = dictionary.size, across = Double(n + 2)
    // The grid (cell units, x right, y down) to the image, corners in the quad's order.
    let grid = [SIMD2(0.0, 0.0), SIMD2(across, 0), SIMD2(across, across), SIMD2(0, across)]
    guard let h = try? Homography.estimate(from: grid, to: quad) else { return nil }
    // Each cell's mean grey over a 3 × 3 pattern around its centre.
    var means = [[Double]](repeating: [Double](repeating: 0, count: n + 2), count: n + 2)
    for row in 0..<(n + 2) {
      for column in 0..<(n + 2) {
        var sum = 0.0, count = 0.0
        for dy in [-0.25, 0.0, 0.25] {
          for dx in [-0.25, 0.0, 0.25] {
            guard let p = h.apply(SIMD2(Double(column) + 0.5 + dx, Double(row) + 0.5 + dy)) else {
              return nil
            }
            sum += grey.sample(p)
            count += 1
          }
        }
        means[row][column] = sum / count
      }
    }
    // Black from white by Otsu's threshold over the cells.
    let values = means.flatMap { $0 }
    guard let threshold = Self.otsu(values) else { return nil }
    var borderWhite = 0
    for i in 0..<(n + 2) {
      for (r, c) in [(0, i), (n + 1, i), (i, 0), (i, n + 1)] where means[r][c] > threshold {
        borderWhite += 1
      }
    }
    guard Double(borderWhite) <= 0.2 * Double(4 * (n + 1)) else { return nil }
    var bits = [[Bool]](repeating: [Bool](repeating: false, count: n), count: n)
    for r in 0..<n { for c in 0..<n { bits[r][c] = means[r + 1][c + 1] > threshold } }
    // The code in each of its four turns: turn k reads the grid turned k quarter turns
    // clockwise, so the marker's top-left corner is the quad's corner k.
    var best: (id: Int, distance: Int, turn: Int)?
    for turn in 0..<4 {
      var code: UInt64 = 0
      for r in 0..<n {
        for c in 0..<n {
          // The cell of the marker as drawn at (r, c), seen in the quad turned `turn` times.
          let (qr, qc): (Int, Int)
          switch turn {
          case 0: (qr, qc) = (r, c)
          case 1: (qr, qc) = (c, n - 1 - r)
          case 2: (qr, qc) = (n - 1 - r, n - 1 - c)
          default: (qr, qc) = (n - 1 - c, r)
          }
          code = code << 1 | (bits[qr][qc] ? 1 : 0)
        }
      }
      for (id, candidate) in dictionary.codes.enumerated() {
        let d = (candidate ^ code).nonzeroBitCount
        if d <= dictionary.correctableBits, d < (best?.distance ?? .max) { best = (id, d, turn) }
      }
    }
    return best
  }

  /// `transform` of each element, run concurrently, in order.
  static func concurrentMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
    results.initialize(repeating: nil)
    defer { results.deallocate() }
    nonisolated(unsafe) let slots = results
    DispatchQueue.concurrentPerform(iterations: items.count) { slots[$0] = transform(items[$0]) }
    return results.map { $0! }
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
