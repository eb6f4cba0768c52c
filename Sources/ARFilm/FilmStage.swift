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
  /// Applies the stage in place.
  func apply(to image: inout LinearImage, context: FilmContext)
}

/// A stage's work on a band of an image's rows: the whole image's pixels (row-major) and the
/// rows to change, which no other band touches.
public typealias FilmKernel = @Sendable (UnsafeMutableBufferPointer<SIMD4<Float>>, Range<Int>) -> Void

/// A stage that changes each pixel from its own value and place alone (a colour transform, a
/// curve, vignetting, grain drawn beforehand). A look runs consecutive ones band by band, all of
/// them on a band while it is in the cache, instead of a pass over the image each.
public protocol PointwiseFilmStage: FilmStage {
  /// The stage made ready for an image of this size (tables built, noise drawn), or nil when it
  /// changes nothing.
  func kernel(width: Int, height: Int, context: FilmContext) -> FilmKernel?
}

extension PointwiseFilmStage {
  public func apply(to image: inout LinearImage, context: FilmContext) {
    guard let kernel = kernel(width: image.width, height: image.height, context: context) else { return }
    image.forEachBand(threads: context.threads, kernel)
  }
}

/// A kernel applying `transform` to every pixel's colour (alpha kept), for an image `width` wide.
func colourKernel(width: Int, _ transform: @escaping @Sendable (SIMD3<Float>) -> SIMD3<Float>) -> FilmKernel {
  { buffer, rows in
    for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
      let p = buffer[i]
      let c = transform(SIMD3(p.x, p.y, p.z))
      buffer[i] = SIMD4(c.x, c.y, c.z, p.w)
    }
  }
}

/// What stages share while a look is applied.
public struct FilmContext: Sendable {
  /// Seeds the random stages (grain, light leaks): the same seed gives the same bytes, on any
  /// number of threads.
  public var seed: UInt64
  /// Worker threads.
  public var threads: Int

  public init(seed: UInt64 = 0, threads: Int = 2) {
    self.seed = seed
    self.threads = max(1, threads)
  }
}

/// Rec. 709 luminance weights of linear sRGB.
let luminanceWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

extension Image where Pixel == SIMD4<Float> {
  /// Runs `body` over bands of rows on `threads` threads, each band's rows given as a buffer of
  /// the whole image and a row range (bands write their own rows only).
  mutating func forEachBand(
    threads: Int, rowsPerBand: Int? = nil,
    _ body: @Sendable (UnsafeMutableBufferPointer<SIMD4<Float>>, Range<Int>) -> Void
  ) {
    let height = self.height
    pixels.withUnsafeMutableBufferPointer { buffer in
      let shared = UnsafeSendableMutablePointer(buffer.baseAddress!)
      let count = buffer.count
      let bands = min(rowsPerBand.map { (height + $0 - 1) / $0 } ?? max(1, threads) * 4, max(1, height))
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        let rows = (band * height / bands)..<((band + 1) * height / bands)
        body(UnsafeMutableBufferPointer(start: shared.pointer, count: count), rows)
      }
    }
  }

  /// A plane of `f(luminance)` for every pixel (Rec. 709 luminance of the linear colour), on
  /// `threads` threads.
  func luminancePlane(threads: Int, _ f: @Sendable (Float) -> Float) -> [Float] {
    let count = pixels.count
    return [Float](unsafeUninitializedCapacity: count) { out, initialized in
      let target = UnsafeSendableMutablePointer(out.baseAddress!)
      pixels.withUnsafeBufferPointer { source in
        let s = UnsafeSendablePointer(source.baseAddress!)
        let bands = max(1, threads) * 4
        DispatchQueue.concurrentPerform(iterations: bands) { band in
          for i in (band * count / bands)..<((band + 1) * count / bands) {
            target.pointer[i] = f((s.pointer[i] * luminanceWeights).sum())
          }
        }
      }
      initialized = count
    }
  }
}
