import ARImage
import ARMath

/// Split toning: the shadows tinted one hue and the highlights another, each keeping its
/// luminance. Parameters: `shadows` and `highlights`, each `{"hue_deg": 0…360, "saturation":
/// 0…1}` (default saturation 0: no tint), and `balance` (−1…1: where shadows end and highlights
/// begin, on display-encoded luminance, 0 at mid-grey).
public struct SplitToning: FilmStage {
  /// The stage's key in a preset file: `split_toning`.
  public static let key = "split_toning"
  let shadow: SIMD3<Float>, highlight: SIMD3<Float>
  let shadowAmount: Float, highlightAmount: Float, balance: Float

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["shadows", "highlights", "balance"])
    let (s, h) = (try p.object("shadows"), try p.object("highlights"))
    try s.only(["hue_deg", "saturation"])
    try h.only(["hue_deg", "saturation"])
    shadow = Self.tint(hue: try s.number("hue_deg", in: 0...360, default: 30))
    highlight = Self.tint(hue: try h.number("hue_deg", in: 0...360, default: 210))
    shadowAmount = Float(try s.number("saturation", in: 0...1, default: 0))
    highlightAmount = Float(try h.number("saturation", in: 0...1, default: 0))
    balance = Float(try p.number("balance", in: -1...1, default: 0))
  }

  /// A fully saturated colour of `hue` (degrees, HSV's hue wheel) scaled to luminance 1.
  static func tint(hue: Double) -> SIMD3<Float> {
    let h = (hue.truncatingRemainder(dividingBy: 360)) / 60
    let x = Float(1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
    let c: SIMD3<Float> =
      switch Int(h) {
      case 0: SIMD3(1, x, 0)
      case 1: SIMD3(x, 1, 0)
      case 2: SIMD3(0, 1, x)
      case 3: SIMD3(0, x, 1)
      case 4: SIMD3(x, 0, 1)
      default: SIMD3(1, 0, x)
      }
    let linear = SIMD3(SRGB.decode(c.x), SRGB.decode(c.y), SRGB.decode(c.z))
    return linear / (SIMD4(linear, 0) * luminanceWeights).sum()
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard shadowAmount > 0 || highlightAmount > 0 else { return nil }
    let (shadow, highlight, sa, ha) = (self.shadow, self.highlight, shadowAmount, highlightAmount)
    let pivot = 0.5 + 0.4 * balance
    // Four pixels at a time, as channel vectors: per pixel the weight needs a square root and
    // the luminance is kept by a division.
    let (shadowShift, highlightShift) = (shadow - 1, highlight - 1)
    return .pointwise { row, _ in
      for x in FourPixels.columns(row) {
        var four = FourPixels(row, x)
        let y = four.luminance
        // A smooth weight from the shadows (0) to the highlights (1), on the encoded luminance.
        let t = LaneMath.unitClamped((LaneMath.squareRoot(LaneMath.atLeastZero(y)) - pivot) * 2.5 + 0.5)
        let w = t * t * (3 - 2 * t)
        let (shadowWeight, highlightWeight) = (sa * (1 - w), ha * w)
        var toned = four
        toned.red *= 1 + shadowShift.x * shadowWeight + highlightShift.x * highlightWeight
        toned.green *= 1 + shadowShift.y * shadowWeight + highlightShift.y * highlightWeight
        toned.blue *= 1 + shadowShift.z * shadowWeight + highlightShift.z * highlightWeight
        // Keep the luminance; black (no luminance to keep) stays as it is.
        let y2 = toned.luminance
        let scaled = LaneMath.greaterMask(y, .zero) & LaneMath.greaterMask(y2, .zero)
        let gain = LaneMath.selected(y / y2, SIMD4(repeating: 1), where: scaled)
        four.red = LaneMath.selected(toned.red * gain, four.red, where: scaled)
        four.green = LaneMath.selected(toned.green * gain, four.green, where: scaled)
        four.blue = LaneMath.selected(toned.blue * gain, four.blue, where: scaled)
        four.store(row, x)
      }
    }
  }
}
