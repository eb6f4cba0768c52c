/// The bits of an FSE-coded payload, read from its end towards its start (the encoder wrote
/// them forwards and the decoder takes them in reverse), through a 64-bit accumulator that is
/// refilled whole bytes at a time.
struct FSEBackwardBits {
  private let bytes: [UInt8]
  /// The data's first byte; reading never goes below it.
  private let start: Int
  /// The next byte to take is the one before this.
  private var position: Int
  private var accumulator: UInt64 = 0
  private var count = 0

  /// The payload ending at `end`; `initialBits` (−7…0) is what the encoder stored of its last
  /// partial byte: the last 8 bytes hold 64 + `initialBits` bits (7 bytes and 56 bits when it
  /// is 0). A payload shorter than that is read with the bytes before it, whose bits a
  /// well-formed stream never takes (as the reference decoder reads it): reading stops only at
  /// the data's start.
  init(_ bytes: [UInt8], end: Int, initialBits: Int) throws(LZFSEError) {
    (self.bytes, start, position) = (bytes, 0, end)
    guard (-7...0).contains(initialBits) else {
      throw LZFSEError(at: end, "a bit count of \(initialBits), outside −7…0")
    }
    let width = initialBits == 0 ? 7 : 8
    guard end - start >= width else { throw LZFSEError(at: start, "a payload too short for its bits") }
    position -= width
    for i in 0..<width { accumulator |= UInt64(bytes[position + i]) << (8 * i) }
    count = 8 * width + initialBits
    guard accumulator >> UInt64(count) == 0 else {
      throw LZFSEError(at: position, "bits set above the payload's stated bit count")
    }
  }

  /// Tops the accumulator up to at least 56 bits, whole bytes from below the ones taken.
  mutating func refill() throws(LZFSEError) {
    let take = (63 - count) & ~7
    guard take > 0 else { return }
    let n = take >> 3
    guard position - n >= start else { throw LZFSEError(at: start, "the payload ran out of bits") }
    position -= n
    var incoming: UInt64 = 0
    for i in 0..<n { incoming |= UInt64(bytes[position + i]) << (8 * i) }
    accumulator = (accumulator << UInt64(take)) | incoming
    count += take
  }

  /// The next `n` bits (0…56; the accumulator never holds 64) as a number, most significant first as they were written.
  mutating func take(_ n: Int) throws(LZFSEError) -> UInt64 {
    guard n <= count else { throw LZFSEError(at: position, "the payload ran out of bits") }
    count -= n
    let value = accumulator >> UInt64(count)
    accumulator &= (1 << UInt64(count)) &- 1
    return value
  }
}
