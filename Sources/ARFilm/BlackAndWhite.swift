import ARImage
import ARMath

/// Black and white from a channel mix: grey = r·R + g·G + b·B of linear light (a red filter on
/// panchromatic film is a large `red`). Parameters: `red`, `green`, `blue` (−2…2 each; default
/// Rec. 709 luminance, 0.2126, 0.7152, 0.0722) and `strength` (0…1, the mix with the colour
/// image; 0 changes nothing).
public struct BlackAndWhite: FilmStage {
  /// The stage's key in a preset file: `black_and_white`.
  public static let key = "black_and_white"
  /// The channel mix of linear red, green and blue that makes the grey.
  public let weights: SIMD3<Float>
  /// The mix with the colour image, 0…1 (0 changes nothing).
  public let strength: Float

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["red", "green", "blue", "strength"])
    weights = SIMD3(
      Float(try p.number("red", in: -2...2, default: 0.2126)),
      Float(try p.number("green", in: -2...2, default: 0.7152)),
      Float(try p.number("blue", in: -2...2, default: 0.0722)))
    strength = Float(try p.number("strength", in: 0...1, default: 1))
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let (w, s) = (weights, strength)
    return colourStep { c in
      let grey = SIMD3(repeating: max(0, (w * c).sum()))
      return s == 1 ? grey : c + (grey - c) * s
    }
  }
}
