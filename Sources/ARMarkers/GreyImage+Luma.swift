import ARImage

extension GreyImage {
  /// Writes `offset + sign × luma` of the pixels `range` of `pixels` to the same places of
  /// `out`: Rec. 601 luma, `0.299 r + 0.587 g + 0.114 b`, summed in that order.
  ///
  /// Eight pixels at a time as 32-bit words whose bytes are the channels: masks and shifts
  /// take each channel out of all eight at once, where a loop over `SIMD4<UInt8>` pixels is
  /// compiled to scalar code (1.9 ns a pixel against 0.25). Each lane does the scalar loop's
  /// multiplications and additions in its order, so the values are the same to the bit.
  static func luma(
    of pixels: UnsafePointer<SIMD4<UInt8>>, range: Range<Int>, into out: UnsafeMutablePointer<Float>,
    sign: Float, offset: Float
  ) {
    var i = range.lowerBound
    #if _endian(little)
      let raw = UnsafeRawPointer(pixels), destination = UnsafeMutableRawPointer(out)
      let mask = SIMD8<UInt32>(repeating: 0xFF)
      while i + 8 <= range.upperBound {
        let words = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
        let r = SIMD8<Float>(words & mask), g = SIMD8<Float>((words &>> 8) & mask)
        let b = SIMD8<Float>((words &>> 16) & mask)
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        destination.storeBytes(of: offset + sign * y, toByteOffset: i * 4, as: SIMD8<Float>.self)
        i += 8
      }
    #endif
    while i < range.upperBound {
      let c = pixels[i]
      let y = 0.299 * Float(c.x) + 0.587 * Float(c.y) + 0.114 * Float(c.z)
      out[i] = offset + sign * y
      i += 1
    }
  }
}
