/// An image or screen size `W,H` in whole pixels, each at least 1.
///
/// Each command checks its own upper limit in `validate()`, so a size it cannot take is a usage
/// error too.
struct PixelSize: OptionValue, Equatable {
  var width: Int
  var height: Int

  init(parsing text: String) throws(OptionValueError) {
    let wh = try NumberList.parse(text, count: 2)
    guard wh.allSatisfy({ $0 >= 1 && $0 <= Double(1 << 24) && $0 == $0.rounded() }) else {
      throw OptionValueError("width and height must be whole numbers of pixels, at least 1")
    }
    (width, height) = (Int(wh[0]), Int(wh[1]))
  }

  /// Whether both sides are within `sides`.
  func fits(_ sides: ClosedRange<Int>) -> Bool { sides.contains(width) && sides.contains(height) }

  var vector: SIMD2<Int> { SIMD2(width, height) }
}
