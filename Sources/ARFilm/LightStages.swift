import ARImage
import ARMath
import Foundation

/// A lens's natural vignetting: light falls off towards the corners as cos⁴ of the angle from
/// the axis. Parameters: `amount` (0…1, how much of that falloff; 0 changes nothing) and
/// `field_deg` (the lens's diagonal field of view, 20…120°, default 75: a phone's wide lens).
/// The gain is 1 at the image's centre, falls monotonically with the distance from it and is
/// the same at equal distances.
public struct Vignette: PointwiseFilmStage {
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

  public func kernel(width w: Int, height h: Int, context: FilmContext) -> FilmKernel? {
    guard amount > 0 else { return nil }
    let half = (Double(w * w + h * h)).squareRoot() / 2
    // The gain by squared distance in pixels², tabulated finely.
    let steps = 8192
    let table = (0...steps).map { gain(atRadius: (Double($0) / Double(steps)).squareRoot()) }
    return { buffer, rows in
      for y in rows {
        let dy = (Double(y) + 0.5 - Double(h) / 2) / half
        for x in 0..<w {
          let dx = (Double(x) + 0.5 - Double(w) / 2) / half
          let g = table[min(steps, Int(((dx * dx + dy * dy) * Double(steps)).rounded()))]
          let p = buffer[y * w + x]
          buffer[y * w + x] = SIMD4(p.x * g, p.y * g, p.z * g, p.w)
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
public struct LightLeak: PointwiseFilmStage {
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

  public func kernel(width w: Int, height h: Int, context: FilmContext) -> FilmKernel? {
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
    let across = centres.map { c in (0..<w).map { factor($0, c.x) } }
    let (colour, intensity) = (self.colour, self.intensity)
    return { buffer, rows in
      for y in rows {
        let down = centres.map { factor(y, $0.y) }
        for x in 0..<w {
          var glow: Float = 0
          for k in 0..<centres.count { glow += across[k][x] * down[k] }
          let p = buffer[y * w + x]
          let added = colour * (intensity * glow)
          buffer[y * w + x] = SIMD4(p.x + added.x, p.y + added.y, p.z + added.z, p.w)
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

  public func apply(to image: inout LinearImage, context: FilmContext) {
    guard strength > 0 else { return }
    let threshold = self.threshold
    let excess = image.luminancePlane(threads: context.threads) { max(0, $0 - threshold) }
    let glow = GaussianBlur.blur(
      excess, width: image.width, height: image.height, sigma: radius * Double(image.width),
      threads: context.threads)
    let added = SIMD4(colour * strength, 0)
    let width = image.width
    glow.withUnsafeBufferPointer { g in
      let glowPointer = UnsafeSendablePointer(g.baseAddress!)
      image.forEachBand(threads: context.threads) { buffer, rows in
        for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
          buffer[i] += added * glowPointer.pointer[i]
        }
      }
    }
  }
}
