import ARImage
import ARMath
import CVectorKernels
import Foundation

/// Shadow and highlight adjustment by the neighbourhood's level, as photo editors' sliders:
/// dark regions brightened and bright regions held back, each pixel scaled in proportion so
/// colours keep their hue. Parameters: `shadows` (−1…1, positive lifts the shadows), `highlights`
/// (−1…1, positive recovers the highlights) and `radius` (the neighbourhood's 1-σ as a fraction
/// of the image's width, 0.002…0.1, default 0.02). Zero for both changes nothing.
///
/// On display-encoded luminance Y (0…1) with the neighbourhood's L: Y + s·(1 − L)²·Y(1 − Y)·2 −
/// h·L²·Y(1 − Y)·2, which leaves black and white where they are.
public struct ShadowsHighlights: FilmStage {
  /// The stage's key in a preset file: `shadows_highlights`.
  public static let key = "shadows_highlights"
  /// The shadows and highlights sliders (−1…1 each), and the neighbourhood's 1-σ as a fraction of
  /// the image's width.
  public let shadows: Float, highlights: Float, radius: Double

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["shadows", "highlights", "radius"])
    shadows = Float(try p.number("shadows", in: -1...1, default: 0))
    highlights = Float(try p.number("highlights", in: -1...1, default: 0))
    radius = try p.number("radius", in: 0.002...0.1, default: 0.02)
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard shadows != 0 || highlights != 0 else { return nil }
    let encode = ChannelTable { Encoding.encode($0) }
    let (s, h) = (shadows, highlights)
    let values: FilmRowValues = { row, out in
      encode.entries.withUnsafeBufferPointer { e in
        for x in FourPixels.columns(row) {
          let four = FourPixels(row, x)
          storeFour(ChannelTable.look(four: four.luminance, in: e.baseAddress!), out, x)
        }
      }
    }
    let request = FilmContextRequest(sigma: radius * Double(width), value: values) { plane in
      { row, y in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: row.paddedWidth) { local in
          plane.row(y, into: local.baseAddress!)
          encode.entries.withUnsafeBufferPointer { e in
            Encoding.decodeTable.withUnsafeBufferPointer { d in
              for x in FourPixels.columns(row) {
                var four = FourPixels(row, x)
                let linear = four.luminance
                let v = ChannelTable.look(four: linear, in: e.baseAddress!)
                let n = loadFour(local.baseAddress!, x)
                let dark = (1 - n) * (1 - n) * s, bright = n * n * h
                let change: SIMD4<Float> = 2 * v * (1 - v) * (dark - bright)
                let target = Encoding.decodeFast(v + change, in: d.baseAddress!)
                // Unchanged where nothing changes, or where black (no colour to scale).
                let changing =
                  ~LaneMath.equalMask(change, .zero) & LaneMath.greaterMask(v, .zero)
                  & LaneMath.greaterMask(linear, .zero)
                let gain = LaneMath.selected(target / linear, SIMD4(repeating: 1), where: changing)
                four.red *= gain
                four.green *= gain
                four.blue *= gain
                four.store(row, x)
              }
            }
          }
        }
      }
    }
    return .wide(request)
  }
}
