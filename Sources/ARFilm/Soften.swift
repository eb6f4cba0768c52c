import ARImage
import ARMath
import Foundation

/// Soft focus, as a diffusion filter on the lens gives it: the image mixed with a Gaussian blur
/// of itself (in linear light, so highlights bloom as light does). Parameters: `sigma_px` (the
/// blur's 1-σ, 0.3…8 pixels) and `strength` (0…1, the blurred image's share; 0 changes
/// nothing, 1 is the plain blur). Edges repeat the image's edge pixels.
///
/// Streamed as a neighbourhood of ⌈3σ⌉ rows: each input row is blurred across once (its three
/// colour planes), and each output row is the weighted sum of those rows down its column.
public struct Soften: FilmStage {
  public static let key = "soften"
  public let sigma: Double, strength: Float

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["sigma_px", "strength"])
    sigma = try p.number("sigma_px", in: 0.3...8, default: 2)
    strength = Float(try p.number("strength", in: 0...1, default: 0.5))
  }

  public init(sigma: Double, strength: Float = 1) {
    self.sigma = sigma
    self.strength = strength
  }

  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let r = Int((3 * sigma).rounded(.up))
    let raw = (0...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
    // The Gaussian's weights from the centre out, summing to one over both sides.
    let weights = raw.map { Float($0 / total) }
    let strength = self.strength
    // Across each input row: its colour planes blurred, into three derived planes.
    let across: FilmRowValues = { row, out in
      let padded = row.paddedWidth
      weights.withUnsafeBufferPointer { wp in
        Self.convolve(row.red, into: out, width: w, padded: padded, weights: wp)
        Self.convolve(row.green, into: out + padded, width: w, padded: padded, weights: wp)
        Self.convolve(row.blue, into: out + 2 * padded, width: w, padded: padded, weights: wp)
      }
    }
    let neighbourhood = FilmNeighbourhood(reach: r, planes: 3, derive: across) { window, out, _ in
      weights.withUnsafeBufferPointer { wp in
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 2 * r + 1) { rows in
          let centre = window.row(0)
          func down(_ p: Int, sharp: UnsafeMutablePointer<Float>, into plane: UnsafeMutablePointer<Float>) {
            // The derived rows, above (−k) and below (+k) interleaved: rows[2k − 1], rows[2k].
            rows[0] = window.plane(p, 0)
            for k in 1...r { (rows[2 * k - 1], rows[2 * k]) = (window.plane(p, -k), window.plane(p, k)) }
            Self.sumDown(
              UnsafePointer(rows.baseAddress!), weights: wp, count: out.paddedWidth, into: plane)
            if strength < 1 {
              for x in 0..<out.paddedWidth { plane[x] = sharp[x] + (plane[x] - sharp[x]) * strength }
            }
          }
          down(0, sharp: centre.red, into: out.red)
          down(1, sharp: centre.green, into: out.green)
          down(2, sharp: centre.blue, into: out.blue)
          out.alpha.update(from: centre.alpha, count: out.paddedWidth)
        }
      }
    }
    return .neighbourhood(neighbourhood)
  }

  /// Down the columns: `weights[0]` times `rows[0]` plus, for each k, `weights[k]` times the
  /// sum of `rows[2k − 1]` and `rows[2k]` (the rows k above and below), for `count` columns (a
  /// multiple of four). Sixteen columns at a time, each sum kept in a register over all the rows:
  /// four independent chains of additions, and the output written once.
  static func sumDown(
    _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>, count: Int,
    into out: UnsafeMutablePointer<Float>
  ) {
    let r = weights.count - 1
    var x = 0
    while x &+ 16 <= count {
      let w0 = SIMD4(repeating: weights[0])
      var (a, b) = (loadFour(rows[0], x) * w0, loadFour(rows[0], x &+ 4) * w0)
      var (c, d) = (loadFour(rows[0], x &+ 8) * w0, loadFour(rows[0], x &+ 12) * w0)
      for k in 1...r {
        let (above, below, w) = (rows[2 &* k &- 1], rows[2 &* k], SIMD4(repeating: weights[k]))
        a += (loadFour(above, x) + loadFour(below, x)) * w
        b += (loadFour(above, x &+ 4) + loadFour(below, x &+ 4)) * w
        c += (loadFour(above, x &+ 8) + loadFour(below, x &+ 8)) * w
        d += (loadFour(above, x &+ 12) + loadFour(below, x &+ 12)) * w
      }
      storeFour(a, out, x)
      storeFour(b, out, x &+ 4)
      storeFour(c, out, x &+ 8)
      storeFour(d, out, x &+ 12)
      x &+= 16
    }
    while x < count {
      var a = loadFour(rows[0], x) * weights[0]
      for k in 1...r { a += (loadFour(rows[2 &* k &- 1], x) + loadFour(rows[2 &* k], x)) * weights[k] }
      storeFour(a, out, x)
      x &+= 4
    }
  }

  /// `plane` blurred along the row by the symmetric `weights` (centre first), edges repeated,
  /// into `out` (`padded` values; those past `width` repeat the last).
  static func convolve(
    _ plane: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, width: Int, padded: Int,
    weights: UnsafeBufferPointer<Float>
  ) {
    let r = weights.count - 1
    @inline(__always) func at(_ x: Int) -> Float { plane[min(max(x, 0), width - 1)] }
    var x = 0
    while x < padded {
      if x >= r && x &+ 15 &+ r < width {
        // Sixteen at a time where the whole reach lies inside the row: four independent sums,
        // each weight broadcast once for all four.
        let w0 = SIMD4(repeating: weights[0])
        var (a, b) = (loadFour(plane, x) * w0, loadFour(plane, x &+ 4) * w0)
        var (c, d) = (loadFour(plane, x &+ 8) * w0, loadFour(plane, x &+ 12) * w0)
        for k in 1...r {
          let (left, right, w) = (plane + (x &- k), plane + (x &+ k), SIMD4(repeating: weights[k]))
          a += (loadFour(left, 0) + loadFour(right, 0)) * w
          b += (loadFour(left, 4) + loadFour(right, 4)) * w
          c += (loadFour(left, 8) + loadFour(right, 8)) * w
          d += (loadFour(left, 12) + loadFour(right, 12)) * w
        }
        storeFour(a, out, x)
        storeFour(b, out, x &+ 4)
        storeFour(c, out, x &+ 8)
        storeFour(d, out, x &+ 12)
        x &+= 16
      } else {
        for j in 0..<4 {
          var sum = at(x + j) * weights[0]
          for k in 1...r { sum += (at(x + j - k) + at(x + j + k)) * weights[k] }
          out[x + j] = sum
        }
        x &+= 4
      }
    }
  }
}
