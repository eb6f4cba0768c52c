import ARImage
import ARMath
import Foundation

/// What a stage does to an image of a given size, in the form the pipeline streams: the
/// image flows through a look row by row, every stage working on a row while it is in the
/// cache, and no stage ever holds the whole image.
public enum FilmStep: Sendable {
  /// Each pixel changed from its own value and place (a colour transform, a curve,
  /// vignetting, grain).
  case pointwise(FilmKernel)
  /// Each output row made from the input rows within a few rows of it (a bilateral filter).
  case neighbourhood(FilmNeighbourhood)
  /// Each pixel changed from its own value and a smooth summary of its wide neighbourhood (a
  /// Gaussian-weighted mean over tens of pixels): the summary is made first, in a pass of its
  /// own over the stage's input, then the stage is pointwise.
  case wide(FilmContextRequest)
}
