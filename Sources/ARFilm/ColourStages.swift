import ARImage
import ARMath

/// A 3×3 matrix applied to linear RGB: a film's colour rendition, a cross-process's crossed
/// channels. Parameters: `matrix`, 9 numbers row by row, each −4…4 (default the identity, which
/// changes nothing).
public struct ColourMatrix: FilmStage {
  public static let key = "colour_matrix"
  /// Rows of the matrix.
  public let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
  let isIdentity: Bool

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["matrix"])
    let m = try p.numbers("matrix", count: 9, in: -4...4, default: [1, 0, 0, 0, 1, 0, 0, 0, 1])
    self.init(rows: m.map(Float.init))
  }

  /// A matrix from its 9 entries, row by row.
  public init(rows m: [Float]) {
    rows = (SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
    isIdentity = m == [1, 0, 0, 0, 1, 0, 0, 0, 1]
  }

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard !isIdentity else { return nil }
    let (r0, r1, r2) = rows
    return .pointwise { row, _ in
      for x in FourPixels.columns(row) {
        var four = FourPixels(row, x)
        let (r, g, b) = (four.red, four.green, four.blue)
        four.red = r * r0.x + g * r0.y + b * r0.z
        four.green = r * r1.x + g * r1.y + b * r1.z
        four.blue = r * r2.x + g * r2.y + b * r2.z
        four.store(row, x)
      }
    }
  }
}

/// White balance: the image's light assumed to have a colour temperature (and a green–magenta
/// tint), adapted to D65 white by the Bradford transform, as a photo editor's temperature
/// slider: a higher temperature than the light's makes the image warmer.
///
/// Parameters: `temperature_k` (2,000…25,000 K; the white on the CIE daylight locus from 4,000 K,
/// on the Planckian locus below; default 6,504, D65, with `tint` 0: unchanged) and `tint`
/// (−1…1, positive towards magenta).
public struct WhiteBalance: FilmStage {
  public static let key = "white_balance"
  let matrix: ColourMatrix?

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

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    matrix?.step(width: width, height: height, context: context)
  }
}

/// Black and white from a channel mix: grey = r·R + g·G + b·B of linear light (a red filter on
/// panchromatic film is a large `red`). Parameters: `red`, `green`, `blue` (−2…2 each; default
/// Rec. 709 luminance, 0.2126, 0.7152, 0.0722) and `strength` (0…1, the mix with the colour
/// image; 0 changes nothing).
public struct BlackAndWhite: FilmStage {
  public static let key = "black_and_white"
  public let weights: SIMD3<Float>
  public let strength: Float

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["red", "green", "blue", "strength"])
    weights = SIMD3(
      Float(try p.number("red", in: -2...2, default: 0.2126)),
      Float(try p.number("green", in: -2...2, default: 0.7152)),
      Float(try p.number("blue", in: -2...2, default: 0.0722)))
    strength = Float(try p.number("strength", in: 0...1, default: 1))
  }

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0 else { return nil }
    let (w, s) = (weights, strength)
    return colourStep { c in
      let grey = SIMD3(repeating: max(0, (w * c).sum()))
      return s == 1 ? grey : c + (grey - c) * s
    }
  }
}

/// Split toning: the shadows tinted one hue and the highlights another, each keeping its
/// luminance. Parameters: `shadows` and `highlights`, each `{"hue_deg": 0…360, "saturation":
/// 0…1}` (default saturation 0: no tint), and `balance` (−1…1: where shadows end and highlights
/// begin, on display-encoded luminance, 0 at mid-grey).
public struct SplitToning: FilmStage {
  public static let key = "split_toning"
  let shadow: SIMD3<Float>, highlight: SIMD3<Float>
  let shadowAmount: Float, highlightAmount: Float, balance: Float

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
