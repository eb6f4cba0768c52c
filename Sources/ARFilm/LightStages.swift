import ARImage
import ARMath
import Foundation

/// A lens's natural vignetting: light falls off towards the corners as cos⁴ of the angle from
/// the axis. Parameters: `amount` (0…1, how much of that falloff; 0 changes nothing) and
/// `field_deg` (the lens's diagonal field of view, 20…120°, default 75: a phone's wide lens).
/// The gain is 1 at the image's centre, falls monotonically with the distance from it and is
/// the same at equal distances.
public struct Vignette: FilmStage {
  public static let key = "vignette"
  public let amount: Double, field: Double

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["amount", "field_deg"])
    amount = try p.number("amount", in: 0...1, default: 0.5)
    field = try p.number("field_deg", in: 20...120, default: 75)
  }

  /// The gain at `distance` from the centre, as a fraction of the half diagonal.
  public func gain(atRadius r: Double) -> Float {
    let theta = atan(r * tan(field / 2 * .pi / 180))
    let c = cos(theta)
    return Float(1 - amount * (1 - c * c * c * c))
  }

  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard amount > 0 else { return nil }
    let half = (Double(w * w + h * h)).squareRoot() / 2
    // cos⁴(atan(r·tan(field/2))) = 1 / (1 + k·r²)² with k = tan²(field/2): the gain from the
    // squared radius by a product, a sum and a division, four pixels at a time.
    let k = Float(tan(field / 2 * .pi / 180) * tan(field / 2 * .pi / 180))
    let (share, floor) = (Float(amount), Float(1 - amount))
    // Squared distances from the centre as fractions of the half diagonal's square, across once
    // and down once a row (the same at equal distances either side of the centre, so the gain
    // is symmetric to the bit).
    @Sendable func squares(_ n: Int, _ at: Int) -> Float {
      let d = (Double(at) + 0.5 - Double(n) / 2) / half
      return Float(d * d)
    }
    let across = (0..<FilmRow.padded(w)).map { squares(w, $0) }
    return .pointwise { row, y in
      let down = SIMD4<Float>(repeating: squares(h, y))
      across.withUnsafeBufferPointer { acrossSquares in
        for x in FourPixels.columns(row) {
          var four = FourPixels(row, x)
          let t = 1 + k * (loadFour(acrossSquares.baseAddress!, x) + down)
          let g = floor + share / (t * t)
          four.red *= g
          four.green *= g
          four.blue *= g
          four.store(row, x)
        }
      }
    }
  }
}

/// Light leaks: soft coloured glows where light crept past the camera's seals, entering from
/// the frame's edges at seeded places. They only add light, never darken. Parameters: `count`
/// (1…4), `intensity` (0…2, linear light added at a glow's centre; 0 changes nothing), `size`
/// (0.05…1, a glow's 1-σ radius as a fraction of the image's diagonal) and `colour` (linear RGB,
/// each 0…1; default a warm orange).
public struct LightLeak: FilmStage {
  public static let key = "light_leak"
  public let count: Int, intensity: Float, size: Double, colour: SIMD3<Float>

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

/// Halation: light from bright highlights scattering back through the film base and exposing
/// the red-sensitive layer around them, a red-orange glow. Parameters: `threshold` (linear
/// luminance above which light scatters, 0…4, default 0.8), `radius` (the glow's 1-σ spread as
/// a fraction of the image's width, 0.001…0.05, default 0.004), `strength` (0…2; 0 changes
/// nothing) and `colour` (linear RGB 0…1, default red-orange). It only adds light.
public struct Halation: FilmStage {
  public static let key = "halation"
  public let threshold: Float, radius: Double, strength: Float, colour: SIMD3<Float>

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["threshold", "radius", "strength", "colour"])
    threshold = Float(try p.number("threshold", in: 0...4, default: 0.8))
    radius = try p.number("radius", in: 0.001...0.05, default: 0.004)
    strength = Float(try p.number("strength", in: 0...2, default: 0.25))
    colour = try p.colour("colour", default: SIMD3(1, 0.25, 0.06))
  }

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let (threshold, added) = (self.threshold, colour * strength)
    let excess: FilmRowValues = { row, out in
      for x in FourPixels.columns(row) {
        let four = FourPixels(row, x)
        storeFour(LaneMath.atLeastZero(four.luminance - threshold), out, x)
      }
    }
    let request = FilmContextRequest(sigma: radius * Double(width), value: excess) { plane in
      { row, y in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: row.paddedWidth) { glow in
          plane.row(y, into: glow.baseAddress!)
          for x in FourPixels.columns(row) {
            var four = FourPixels(row, x)
            four.add(added, times: loadFour(glow.baseAddress!, x))
            four.store(row, x)
          }
        }
      }
    }
    return .wide(request)
  }
}
