import ARImage
import ARMath
import Foundation

/// What a wide stage needs before it can run: a value per pixel of its input, to be averaged
/// over a Gaussian neighbourhood of `sigma` pixels, and the stage's kernel once that
/// ``FilmContextPlane`` is known.
public struct FilmContextRequest: Sendable {
  /// The neighbourhood's Gaussian 1-σ, pixels.
  public var sigma: Double
  /// The value to average, for each pixel of a row of the stage's input.
  public var value: FilmRowValues
  /// The stage's pointwise work, given the plane of averages.
  public var kernel: @Sendable (FilmContextPlane) -> FilmKernel

  /// A request for the average of `value` over a Gaussian of `sigma` pixels, then `kernel`.
  public init(
    sigma: Double, value: @escaping FilmRowValues,
    kernel: @escaping @Sendable (FilmContextPlane) -> FilmKernel
  ) {
    self.sigma = sigma
    self.value = value
    self.kernel = kernel
  }
}
