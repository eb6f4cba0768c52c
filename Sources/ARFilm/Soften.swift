import ARImage
import ARMath
import CVectorKernels
import Foundation

/// Soft focus, as a diffusion filter on the lens gives it: the image mixed with a Gaussian blur
/// of itself (in linear light, so highlights bloom as light does). Parameters: `sigma_px` (the
/// blur's 1-σ, 0.3…8 pixels) and `strength` (0…1, the blurred image's share; 0 changes
/// nothing, 1 is the plain blur). Edges repeat the image's edge pixels.
///
/// Streamed as a neighbourhood of ⌈3σ⌉ rows: each input row is blurred across once (its three
/// colour planes), and each output row is the weighted sum of those rows down its column. On a
/// CPU with AVX2 both sums run eight lanes wide (`WideVectors`), with the same bits.
public struct Soften: FilmStage {
  /// The stage's key in a preset file: `soften`.
  public static let key = "soften"
  /// The blur's 1-σ in pixels (`sigma_px`), and the blurred image's share, 0…1 (`strength`).
  public let sigma: Double, strength: Float

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["sigma_px", "strength"])
    sigma = try p.number("sigma_px", in: 0.3...8, default: 2)
    strength = Float(try p.number("strength", in: 0...1, default: 0.5))
  }

  /// Soft focus of a blur of `sigma` pixels (1-σ), mixed in at `strength` (0…1).
  public init(sigma: Double, strength: Float = 1) {
    self.sigma = sigma
    self.strength = strength
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let r = Int((3 * sigma).rounded(.up))
    let raw = (0...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
    // The Gaussian's weights from the centre out, summing to one over both sides.
    let weights = raw.map { Float($0 / total) }
    let (strength, wide) = (self.strength, context.wideVectors)
    // Across each input row: its colour planes blurred, into three derived planes.
    let across: FilmRowValues = { row, out in
      let padded = row.paddedWidth
      weights.withUnsafeBufferPointer { wp in
        Self.convolve(row.red, into: out, width: w, padded: padded, weights: wp, wide: wide)
        Self.convolve(row.green, into: out + padded, width: w, padded: padded, weights: wp, wide: wide)
        Self.convolve(row.blue, into: out + 2 * padded, width: w, padded: padded, weights: wp, wide: wide)
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
            Self.symmetricSum(
              UnsafePointer(rows.baseAddress!), weights: wp, count: out.paddedWidth, into: plane, wide: wide)
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

  /// `weights[0]` times `sources[0]` plus, for each k, `weights[k]` times the sum of
  /// `sources[2k − 1]` and `sources[2k]`, for `count` columns (a multiple of four): down the
  /// columns the sources are the rows k above and below, along a row the row shifted k left and
  /// right. Sixteen columns at a time, each sum kept in a register over all the sources: four
  /// independent chains of additions, and the output written once. With `wide`, all but the
  /// last four columns run in AVX2, eight lanes at a time: the same sums in the same order.
  static func symmetricSum(
    _ sources: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>, count: Int,
    into out: UnsafeMutablePointer<Float>, wide: Bool
  ) {
    let r = weights.count - 1
    var x = 0
    if wide {
      x = count & ~7
      // (C sees the pointers as optional ones, of the same layout.)
      let cSources = UnsafeRawPointer(sources).assumingMemoryBound(to: UnsafePointer<Float>?.self)
      arscene_symmetric_sum_avx2(cSources, weights.baseAddress!, r, x, out)
    }
    while x &+ 16 <= count {
      let w0 = SIMD4(repeating: weights[0])
      var (a, b) = (loadFour(sources[0], x) * w0, loadFour(sources[0], x &+ 4) * w0)
      var (c, d) = (loadFour(sources[0], x &+ 8) * w0, loadFour(sources[0], x &+ 12) * w0)
      for k in 1...r {
        let (first, second) = (sources[2 &* k &- 1], sources[2 &* k])
        let w = SIMD4(repeating: weights[k])
        a += (loadFour(first, x) + loadFour(second, x)) * w
        b += (loadFour(first, x &+ 4) + loadFour(second, x &+ 4)) * w
        c += (loadFour(first, x &+ 8) + loadFour(second, x &+ 8)) * w
        d += (loadFour(first, x &+ 12) + loadFour(second, x &+ 12)) * w
      }
      storeFour(a, out, x)
      storeFour(b, out, x &+ 4)
      storeFour(c, out, x &+ 8)
      storeFour(d, out, x &+ 12)
      x &+= 16
    }
    while x < count {
      var a = loadFour(sources[0], x) * weights[0]
      for k in 1...r { a += (loadFour(sources[2 &* k &- 1], x) + loadFour(sources[2 &* k], x)) * weights[k] }
      storeFour(a, out, x)
      x &+= 4
    }
  }

  /// `plane` blurred along the row by the symmetric `weights` (centre first), edges repeated,
  /// into `out` (`padded` values; those past `width` repeat the last): the columns whose reach
  /// lies inside the row by ``symmetricSum(_:weights:count:into:wide:)`` over the row shifted,
  /// the others four at a time with their reads clamped.
  static func convolve(
    _ plane: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, width: Int, padded: Int,
    weights: UnsafeBufferPointer<Float>, wide: Bool
  ) {
    let r = weights.count - 1
    @inline(__always) func at(_ x: Int) -> Float { plane[min(max(x, 0), width - 1)] }
    @inline(__always) func clamped(_ x: Int) {
      for j in 0..<4 {
        var sum = at(x + j) * weights[0]
        for k in 1...r { sum += (at(x + j - k) + at(x + j + k)) * weights[k] }
        out[x + j] = sum
      }
    }
    // Inside: from the first multiple of four at or past r, whole fours whose reach ends in the
    // row.
    let start = min((r + 3) & ~3, padded)
    let end = start + max(0, (width - r - start) / 4 * 4)
    var x = 0
    while x < start {
      clamped(x)
      x &+= 4
    }
    if end > start {
      withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 2 * r + 1) { shifted in
        let centre = UnsafePointer(plane + start)
        shifted[0] = centre
        for k in 1...r { (shifted[2 * k - 1], shifted[2 * k]) = (centre - k, centre + k) }
        symmetricSum(
          UnsafePointer(shifted.baseAddress!), weights: weights, count: end - start, into: out + start,
          wide: wide)
      }
      x = end
    }
    while x < padded {
      clamped(x)
      x &+= 4
    }
  }
}
