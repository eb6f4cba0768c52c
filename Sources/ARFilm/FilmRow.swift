import ARImage
import ARMath
import Foundation

/// One row of an image as it streams through a look, as planes: one of red, one of green, one
/// of blue and one of alpha (linear light, not premultiplied). Four pixels' channel is then one
/// vector, with no shuffling of pixels' lanes.
///
/// Each plane holds `paddedWidth` values, `width` rounded up to four, so that loops over four
/// pixels at a time need no tail; the pixels past `width` are copies of the last one (or what a
/// stage made of them) and are never written out.
public struct FilmRow {
  /// The planes, each `paddedWidth` values.
  public let red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>
  /// The blue and alpha planes, each `paddedWidth` values.
  public let blue: UnsafeMutablePointer<Float>, alpha: UnsafeMutablePointer<Float>
  /// Pixels in the row.
  public let width: Int

  /// `width` rounded up to four.
  public var paddedWidth: Int { Self.padded(width) }

  static func padded(_ width: Int) -> Int { (width + 3) & ~3 }

  /// A row over `storage`, which holds `4 · paddedWidth` values.
  init(storage: UnsafeMutablePointer<Float>, width: Int) {
    let padded = Self.padded(width)
    red = storage
    green = storage + padded
    blue = storage + 2 * padded
    alpha = storage + 3 * padded
    self.width = width
  }

  /// Pixel `x` as one vector (red, green, blue, alpha).
  @inline(__always)
  public subscript(x: Int) -> SIMD4<Float> {
    get { SIMD4(red[x], green[x], blue[x], alpha[x]) }
    nonmutating set {
      red[x] = newValue.x
      green[x] = newValue.y
      blue[x] = newValue.z
      alpha[x] = newValue.w
    }
  }

  /// Fills the padding past `width` with copies of the last pixel.
  func pad() {
    for x in width..<paddedWidth { self[x] = self[width - 1] }
  }
}
