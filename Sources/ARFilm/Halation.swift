import ARImage
import ARMath
import Foundation

/// Halation: light from bright highlights scattering back through the film base and exposing
/// the red-sensitive layer around them, a red-orange glow. Parameters: `threshold` (linear
/// luminance above which light scatters, 0…4, default 0.8), `radius` (the glow's 1-σ spread as
/// a fraction of the image's width, 0.001…0.05, default 0.004), `strength` (0…2; 0 changes
/// nothing) and `colour` (linear RGB 0…1, default red-orange). It only adds light.
public struct Halation: FilmStage {
  /// The stage's key in a preset file: `halation`.
  public static let key = "halation"
  /// The linear luminance above which light scatters, the glow's 1-σ as a fraction of the image's
  /// width, its strength (0…2) and its linear RGB colour.
  public let threshold: Float, radius: Double, strength: Float, colour: SIMD3<Float>

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["threshold", "radius", "strength", "colour"])
    threshold = Float(try p.number("threshold", in: 0...4, default: 0.8))
    radius = try p.number("radius", in: 0.001...0.05, default: 0.004)
    strength = Float(try p.number("strength", in: 0...2, default: 0.25))
    colour = try p.colour("colour", default: SIMD3(1, 0.25, 0.06))
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
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
