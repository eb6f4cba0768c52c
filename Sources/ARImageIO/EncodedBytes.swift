import CImageCodecs

/// A file the C encoders made, in their own buffer until it is dropped: written out from there
/// without the copy an array would take (5 MB and its page faults for a camera frame).
final class EncodedBytes {
  private let start: UnsafeMutablePointer<UInt8>
  let count: Int

  /// Takes ownership of `start` (allocated by the C codecs, released with `arscene_buffer_free`).
  init(taking start: UnsafeMutablePointer<UInt8>, count: Int) {
    self.start = start
    self.count = count
  }

  deinit { arscene_buffer_free(start) }

  /// The bytes, copied into an array.
  var array: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

  func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try body(UnsafeRawBufferPointer(start: start, count: count))
  }
}
