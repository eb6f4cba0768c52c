import Foundation

/// The font labels are drawn in: DejaVu Sans Bold, its glyphs rasterised once at 32 pixels per
/// em (Tools/generate-label-font) and scaled to the size asked for, for ASCII, Latin-1, Latin
/// Extended-A (Czech and Slovak names) and common punctuation. A character outside that set is
/// drawn as "?".
public enum LabelFont {
  /// One glyph: advance and ink box at ``glyphSize`` (pixels; the box relative to the pen on
  /// the baseline, y down) and where its coverage starts.
  struct Glyph {
    let advance: Float
    let left: Int, top: Int, width: Int, height: Int
    let offset: Int
  }

  /// The glyphs by code point.
  static let glyphs: [UInt32: Glyph] = Dictionary(
    uniqueKeysWithValues: glyphTable.map { code, advance, left, top, width, height, offset in
      (
        code,
        Glyph(
          advance: advance, left: Int(left), top: Int(top), width: Int(width), height: Int(height),
          offset: Int(offset))
      )
    })

  /// Every glyph's coverage, 0…1, row by row from each glyph's offset.
  static let coverage: [Float] = {
    let packed = [UInt8](Data(base64Encoded: glyphCoverage, options: .ignoreUnknownCharacters) ?? Data())
    var out = [Float](repeating: 0, count: packed.count * 2)
    for (i, byte) in packed.enumerated() {
      out[2 * i] = Float(byte >> 4) / 15
      out[2 * i + 1] = Float(byte & 15) / 15
    }
    return out
  }()

  static func glyph(_ scalar: Unicode.Scalar) -> Glyph {
    glyphs[scalar.value] ?? glyphs[0x3F]!
  }

  /// The width of `text` set at `size` pixels per em: the sum of its advances, pixels.
  public static func width(of text: String, size: Float) -> Float {
    text.unicodeScalars.reduce(0) { $0 + glyph($1).advance } * size / glyphSize
  }

  /// How far the font reaches above and below the baseline at `size` pixels per em, pixels.
  public static func extent(size: Float) -> (ascent: Float, descent: Float) {
    (glyphAscent * size / glyphSize, glyphDescent * size / glyphSize)
  }

  /// Draws `text` with the left end of its baseline at `origin` (pixels, top-left origin),
  /// `size` pixels per em, in `color` (linear RGB) at `opacity`, over `image` in linear light.
  public static func draw(
    _ text: String, at origin: SIMD2<Double>, size: Float, color: SIMD3<Float>, opacity: Float = 1,
    into image: inout RGBA8Image
  ) {
    let scale = Double(size / glyphSize)
    var pen = origin.x
    for scalar in text.unicodeScalars {
      let g = glyph(scalar)
      defer { pen += Double(g.advance) * scale }
      guard g.width > 0, g.height > 0 else { continue }
      // The glyph's box on the image, and each covered pixel's centre back in glyph texels.
      let boxX = pen + Double(g.left) * scale, boxY = origin.y + Double(g.top) * scale
      let x0 = max(0, Int((boxX - 1).rounded(.down))), y0 = max(0, Int((boxY - 1).rounded(.down)))
      let x1 = min(image.width - 1, Int((boxX + Double(g.width) * scale + 1).rounded(.up)))
      let y1 = min(image.height - 1, Int((boxY + Double(g.height) * scale + 1).rounded(.up)))
      guard x0 <= x1, y0 <= y1 else { continue }
      for y in y0...y1 {
        let v = (Double(y) + 0.5 - boxY) / scale - 0.5
        for x in x0...x1 {
          let u = (Double(x) + 0.5 - boxX) / scale - 0.5
          let c = sample(g, u, v)
          if c > 0 { image.blend(color, coverage: c * opacity, at: y * image.width + x) }
        }
      }
    }
  }

  /// Glyph `g`'s coverage at texel coordinates (u, v), bilinear, 0 outside its box.
  private static func sample(_ g: Glyph, _ u: Double, _ v: Double) -> Float {
    let (i, j) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
    let (fu, fv) = (Float(u - Double(i)), Float(v - Double(j)))
    func at(_ x: Int, _ y: Int) -> Float {
      guard x >= 0, y >= 0, x < g.width, y < g.height else { return 0 }
      return coverage[g.offset + y * g.width + x]
    }
    let top = at(i, j) + (at(i + 1, j) - at(i, j)) * fu
    let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fu
    return top + (bottom - top) * fv
  }
}
