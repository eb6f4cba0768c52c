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
        let padded = out.paddedWidth
        let centre = window.row(0)
        // Down the column a row at a time (each pair of rows at equal distances weighted once),
        // into the output row, which stays in the first-level cache: contiguous loops the
        // compiler vectorises.
        func down(_ p: Int, sharp: UnsafeMutablePointer<Float>, into plane: UnsafeMutablePointer<Float>) {
          let (middle, centreWeight) = (window.plane(p, 0), wp[0])
          for x in 0..<padded { plane[x] = middle[x] * centreWeight }
          for k in 1...r {
            let (above, below, weight) = (window.plane(p, -k), window.plane(p, k), wp[k])
            for x in 0..<padded { plane[x] += (above[x] + below[x]) * weight }
          }
          if strength < 1 {
            for x in 0..<padded { plane[x] = sharp[x] + (plane[x] - sharp[x]) * strength }
          }
        }
        down(0, sharp: centre.red, into: out.red)
        down(1, sharp: centre.green, into: out.green)
        down(2, sharp: centre.blue, into: out.blue)
        out.alpha.update(from: centre.alpha, count: padded)
      }
    }
    return .neighbourhood(neighbourhood)
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
    // Four at a time where the whole reach lies inside the row.
    while x < padded {
      if x >= r && x + 3 + r < width {
        var sum = loadFour(plane, x) * weights[0]
        for k in 1...r {
          sum += (loadFour(plane, x - k) + loadFour(plane, x + k)) * weights[k]
        }
        storeFour(sum, out, x)
      } else {
        for j in 0..<4 {
          var sum = at(x + j) * weights[0]
          for k in 1...r { sum += (at(x + j - k) + at(x + j + k)) * weights[k] }
          out[x + j] = sum
        }
      }
      x += 4
    }
  }
}
