import ARImage
import ARMath
import Foundation

/// A lens's natural vignetting: light falls off towards the corners as cos⁴ of the angle from
/// the axis. Parameters: `amount` (0…1, how much of that falloff; 0 changes nothing) and
/// `field_deg` (the lens's diagonal field of view, 20…120°, default 75: a phone's wide lens).
/// The gain is 1 at the image's centre, falls monotonically with the distance from it and is
/// the same at equal distances.
public struct Vignette: FilmStage {
  /// The stage's key in a preset file: `vignette`.
  public static let key = "vignette"
  /// How much of the cos⁴ falloff (0…1), and the lens's diagonal field of view in degrees.
  public let amount: Double, field: Double

  /// The stage from a preset's parameters, each checked against the range above.
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

  /// The stage made ready for an image of this size; nil when it changes nothing.
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
