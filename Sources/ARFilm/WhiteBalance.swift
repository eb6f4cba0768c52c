import ARImage
import ARMath

/// White balance: the image's light assumed to have a colour temperature (and a green–magenta
/// tint), adapted to D65 white by the Bradford transform, as a photo editor's temperature
/// slider: a higher temperature than the light's makes the image warmer.
///
/// Parameters: `temperature_k` (2,000…25,000 K; the white on the CIE daylight locus from 4,000 K,
/// on the Planckian locus below; default 6,504, D65, with `tint` 0: unchanged) and `tint`
/// (−1…1, positive towards magenta).
public struct WhiteBalance: FilmStage {
  /// The stage's key in a preset file: `white_balance`.
  public static let key = "white_balance"
  let matrix: ColourMatrix?

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["temperature_k", "tint"])
    let t = try p.number("temperature_k", in: 2000...25000, default: 6504)
    let tint = try p.number("tint", in: -1...1, default: 0)
    guard t != 6504 || tint != 0 else {
      matrix = nil
      return
    }
    matrix = ColourMatrix(rows: Self.adaptation(from: Self.white(kelvin: t), tint: tint))
  }

  /// The chromaticity (x, y) of a white at `kelvin`.
  static func white(kelvin t: Double) -> SIMD2<Double> {
    let (t2, t3) = (t * t, t * t * t)
    if t >= 4000 {
      // CIE daylight locus (CIE 15:2004).
      let x =
        t <= 7000
        ? 0.244063 + 0.09911e3 / t + 2.9678e6 / t2 - 4.6070e9 / t3
        : 0.237040 + 0.24748e3 / t + 1.9018e6 / t2 - 2.0064e9 / t3
      return SIMD2(x, -3 * x * x + 2.87 * x - 0.275)
    }
    // The Planckian locus below 4,000 K (Kim et al., US patent 7,024,034, cubic fits).
    let x = -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
    let y =
      t <= 2222
      ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
      : -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
    return SIMD2(x, y)
  }

  /// Linear sRGB → linear sRGB adapting `white` to D65 (Bradford), then the tint.
  static func adaptation(from white: SIMD2<Double>, tint: Double) -> [Float] {
    let rgbToXYZ = Matrix3<Double>(
      rows: SIMD3(0.4124564, 0.3575761, 0.1804375), SIMD3(0.2126729, 0.7151522, 0.0721750),
      SIMD3(0.0193339, 0.1191920, 0.9503041))
    let bradford = Matrix3<Double>(
      rows: SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296))
    func xyz(_ c: SIMD2<Double>) -> SIMD3<Double> { SIMD3(c.x / c.y, 1, (1 - c.x - c.y) / c.y) }
    let source = bradford * xyz(white), target = bradford * xyz(SIMD2(0.3127, 0.3290))
    let gains = Matrix3<Double>(diagonal: target / source)
    var m = rgbToXYZ.inverse! * bradford.inverse! * gains * bradford * rgbToXYZ
    // The tint: green against red and blue, keeping a grey's luminance.
    let g = 1 - 0.15 * tint
    let tintGains = SIMD3(1.0, g, 1.0) / (0.2126 + 0.7152 * g + 0.0722)
    m = Matrix3(diagonal: tintGains) * m
    return (0..<3).flatMap { r in (0..<3).map { c in Float(m[c, r]) } }
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    matrix?.step(width: width, height: height, context: context)
  }
}
