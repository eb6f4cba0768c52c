import CVectorKernels

extension GreyImage {
  /// ``threshold(window:)`` of an image of whole 8-bit `levels`, in C in 32-bit integers: the
  /// same decisions (every sum and product is a whole number either way, exact in both), four
  /// pixels to an SSE2 instruction where doubles took two. With `halved`, the decisions of
  /// ``halved``'s `threshold(window:)`, from the 2 × 2 blocks' sums (four times its values,
  /// whole). Nil when a row's sums could pass `Int32.max`.
  func wholeLevelThreshold(_ levels: [UInt8], window: Int, halved: Bool = false) -> [Bool]? {
    let count = halved ? (width / 2) * (height / 2) : width * height
    var dark = Self.keptMasks.take(count: count)
    let done = levels.withUnsafeBufferPointer { levels in
      dark.withUnsafeMutableBufferPointer { dark in
        dark.withMemoryRebound(to: UInt8.self) { out in
          arscene_window_dark(levels.baseAddress, width, height, window, halved ? 1 : 0, out.baseAddress)
        }
      }
    }
    guard done != 0 else {
      Self.keptMasks.give(dark)
      return nil
    }
    return dark
  }
}
