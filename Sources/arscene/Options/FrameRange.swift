/// Frames `A:B`: indices from 0, both included, A ≤ B.
struct FrameRange: OptionValue {
  var frames: ClosedRange<Int>

  init(parsing text: String) throws(OptionValueError) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 2, let a = parts[0], let b = parts[1], a >= 0, b >= a else {
      throw OptionValueError("expected A:B with 0 ≤ A ≤ B")
    }
    frames = a...b
  }
}
