import ARImage
import ARMath
import Foundation

/// One step of a film look, on an image in linear light (linear sRGB primaries, colour not
/// premultiplied; alpha is left as it is). A stage with zero strength, or with its identity
/// parameters, leaves the image unchanged bit for bit.
public protocol FilmStage: Sendable {
  /// The stage's key in a preset file (`"tone_curve"`, `"grain"`, …).
  static var key: String { get }
  /// The stage from a preset's parameters, each checked against its documented range.
  init(_ parameters: FilmParameters) throws(FilmError)
  /// The stage made ready for an image of this size (tables built, grain drawn), in the form a
  /// look streams (``FilmStep``), or nil when it changes nothing.
  func step(width: Int, height: Int, context: FilmContext) -> FilmStep?
}

extension FilmStage {
  /// Applies the stage alone, in place.
  public func apply(to image: inout LinearImage, context: FilmContext) {
    FilmLook(name: Self.key, stages: [self]).apply(to: &image, context: context)
  }
}

/// A step applying `transform` to every pixel's colour (alpha kept). Always inlined, so that
/// the transform is inlined into the row's loop rather than called per pixel.
@inline(__always)
func colourStep(_ transform: @escaping @Sendable (SIMD3<Float>) -> SIMD3<Float>) -> FilmStep {
  .pointwise { row, _ in
    for x in 0..<row.paddedWidth {
      let c = transform(SIMD3(row.red[x], row.green[x], row.blue[x]))
      (row.red[x], row.green[x], row.blue[x]) = (c.x, c.y, c.z)
    }
  }
}

/// Rec. 709 luminance weights of linear sRGB.
let luminanceWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

/// The Rec. 709 luminance of a linear pixel.
@inline(__always)
func luminance(_ p: SIMD4<Float>) -> Float { (p * luminanceWeights).sum() }
