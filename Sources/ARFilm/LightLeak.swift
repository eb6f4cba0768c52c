import ARImage
import ARMath
import Foundation

/// Light leaks: soft coloured glows where light crept past the camera's seals, entering from
/// the frame's edges at seeded places. They only add light, never darken. Parameters: `count`
/// (1…4), `intensity` (0…2, linear light added at a glow's centre; 0 changes nothing), `size`
/// (0.05…1, a glow's 1-σ radius as a fraction of the image's diagonal) and `colour` (linear RGB,
/// each 0…1; default a warm orange).
public struct LightLeak: FilmStage {
  /// The stage's key in a preset file: `light_leak`.
  public static let key = "light_leak"
  /// The number of glows, the linear light added at a glow's centre, a glow's 1-σ radius as a
  /// fraction of the image's diagonal, and its linear RGB colour.
  public let count: Int, intensity: Float, size: Double, colour: SIMD3<Float>

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["count", "intensity", "size", "colour"])
    count = Int(try p.number("count", in: 1...4, default: 1))
    intensity = Float(try p.number("intensity", in: 0...2, default: 0.3))
    size = try p.number("size", in: 0.05...1, default: 0.25)
    colour = try p.colour("colour", default: SIMD3(1, 0.45, 0.12))
  }

  /// The glows' centres (fractions of width and height, on or just beyond an edge) for `seed`.
  public func centres(seed: UInt64) -> [SIMD2<Double>] {
    var random = SplitMix64(seed: seed ^ 0x4c49_4748_545f_4c45)
    return (0..<count).map { _ in
      let along = Double.random(in: 0...1, using: &random),
        beyond = Double.random(in: 0...0.15, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: return SIMD2(along, -beyond)
      case 1: return SIMD2(1 + beyond, along)
      case 2: return SIMD2(along, 1 + beyond)
      default: return SIMD2(-beyond, along)
      }
    }
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard intensity > 0 else { return nil }
    let diagonal = (Double(w * w + h * h)).squareRoot()
    let centres = centres(seed: context.seed).map { SIMD2($0.x * Double(w), $0.y * Double(h)) }
    let inverse = 1 / (2 * size * diagonal * size * diagonal)
    // A round Gaussian is the product of one across and one down: each glow's factor for
    // every column is tabulated once, and each row's once a row.
    @Sendable func factor(_ at: Int, _ centre: Double) -> Float {
      let d = Double(at) + 0.5 - centre
      return Float(exp(-d * d * inverse))
    }
    let across = centres.map { c in (0..<FilmRow.padded(w)).map { factor($0, c.x) } }
    let added = colour * intensity
    return .pointwise { row, y in
      for (k, centre) in centres.enumerated() {
        let gain = added * factor(y, centre.y)
        across[k].withUnsafeBufferPointer { a in
          for x in FourPixels.columns(row) {
            var four = FourPixels(row, x)
            four.add(gain, times: loadFour(a.baseAddress!, x))
            four.store(row, x)
          }
        }
      }
    }
  }
}
