import ARImage
import ARMath

/// A 3×3 matrix applied to linear RGB: a film's colour rendition, a cross-process's crossed
/// channels. Parameters: `matrix`, 9 numbers row by row, each −4…4 (default the identity, which
/// changes nothing).
public struct ColourMatrix: FilmStage {
  /// The stage's key in a preset file: `colour_matrix`.
  public static let key = "colour_matrix"
  /// Rows of the matrix.
  public let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
  let isIdentity: Bool

  /// The stage from a preset's parameters, each checked against the range above.
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

  /// The stage made ready for an image of this size; nil when it changes nothing.
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
