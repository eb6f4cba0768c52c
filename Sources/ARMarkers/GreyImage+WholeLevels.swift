import CVectorKernels

extension GreyImage {
  /// ``threshold(window:)`` of an image of whole 8-bit `levels`, in C in 32-bit integers: the
  /// same decisions (every sum and product is a whole number either way, exact in both), four
  /// pixels to an SSE2 instruction where doubles took two. With `halved`, the decisions of
  /// ``halved``'s `threshold(window:)`, from the 2 × 2 blocks' sums (four times its values,
  /// whole). Nil when a row's sums could pass `Int32.max`, or the kernel's scratch memory could not
  /// be had.
  func wholeLevelThreshold(_ levels: [UInt8], window: Int, halved: Bool = false) -> [Bool]? {
    Self.keptMask(count: halved ? (width / 2) * (height / 2) : width * height) { out in
      levels.withUnsafeBufferPointer { levels in
        arscene_window_dark(levels.baseAddress, width, height, window, halved ? 1 : 0, out)
      }
    }
  }

  /// A kept mask (``keptMasks``) of `count` pixels written by the C kernel `fill` (1 dark, 0
  /// light); nil, the mask handed back, when the kernel returns 0 (it wrote nothing).
  static func keptMask(count: Int, filledBy fill: (UnsafeMutablePointer<UInt8>?) -> Int32) -> [Bool]? {
    var dark = keptMasks.take(count: count)
    let done = dark.withUnsafeMutableBufferPointer { dark in
      dark.withMemoryRebound(to: UInt8.self) { fill($0.baseAddress) }
    }
    guard done != 0 else {
      keptMasks.give(dark)
      return nil
    }
    return dark
  }
}
