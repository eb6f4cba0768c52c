/// The two decoders the USD crate format builds on: LZ4 blocks (as `TfFastCompression` chunks
/// them) and USD's integer coding (deltas, a common value and 2-bit width codes), both
/// bounds-checked: a corrupt file is an error, never a read past the buffer.
enum USDCompression {
  struct Corrupt: Error {
    var reason: String
  }

  /// `TfFastCompression`: a first byte of 0 and one LZ4 block, or a chunk count and that many
  /// (32-bit size, LZ4 block) pairs.
  static func decompress(_ input: ArraySlice<UInt8>, expected: Int, exact: Bool = true) throws(Corrupt)
    -> [UInt8]
  {
    guard let chunks = input.first else { throw Corrupt(reason: "empty compressed data") }
    var output: [UInt8] = []
    // LZ4 expands at most 255 times: a larger claim is corrupt, and is not allocated up front.
    output.reserveCapacity(Swift.min(expected, input.count * 255 + 64))
    var at = input.startIndex + 1
    if chunks == 0 {
      try lz4(input[at...], into: &output, limit: expected)
    } else {
      for _ in 0..<chunks {
        guard at + 4 <= input.endIndex else { throw Corrupt(reason: "a truncated chunk header") }
        let size =
          Int(input[at]) | Int(input[at + 1]) << 8 | Int(input[at + 2]) << 16 | Int(input[at + 3]) << 24
        at += 4
        guard size >= 0, size <= input.endIndex - at else {
          throw Corrupt(reason: "a chunk runs past the data")
        }
        try lz4(input[at..<at + size], into: &output, limit: expected)
        at += size
      }
    }
    guard output.count == expected || !exact else {
      throw Corrupt(reason: "decompressed to \(output.count) bytes, \(expected) expected")
    }
    return output
  }

  /// One LZ4 block (the block format: literal runs and back-references), appended to `output`.
  static func lz4(_ block: ArraySlice<UInt8>, into output: inout [UInt8], limit: Int) throws(Corrupt) {
    var i = block.startIndex
    let start = output.count
    func length(_ initial: Int) throws(Corrupt) -> Int {
      var n = initial
      guard n == 15 else { return n }
      while true {
        guard i < block.endIndex else { throw Corrupt(reason: "a truncated LZ4 length") }
        let b = Int(block[i])
        i += 1
        n += b
        if b != 255 { return n }
      }
    }
    while i < block.endIndex {
      let token = Int(block[i])
      i += 1
      let literals = try length(token >> 4)
      guard literals <= block.endIndex - i, output.count + literals <= limit else {
        throw Corrupt(reason: "an LZ4 literal run past the data")
      }
      output.append(contentsOf: block[i..<i + literals])
      i += literals
      guard i < block.endIndex else { break }  // the last sequence has literals only
      guard i + 2 <= block.endIndex else { throw Corrupt(reason: "a truncated LZ4 offset") }
      let distance = Int(block[i]) | Int(block[i + 1]) << 8
      i += 2
      let match = try length(token & 15) + 4
      guard distance > 0, distance <= output.count - start, output.count + match <= limit else {
        throw Corrupt(reason: "an LZ4 back-reference out of range")
      }
      let from = output.count - distance
      for k in 0..<match { output.append(output[from + k]) }
    }
  }

  /// `count` integers of USD's integer coding in `data` (already decompressed): a common
  /// value, 2-bit codes (common, 8-, 16- or 32-bit delta; 16, 32, 64 for 64-bit integers),
  /// then the deltas; each integer the running sum.
  static func decodeIntegers(_ data: [UInt8], count: Int, wide: Bool) throws(Corrupt) -> [Int64] {
    let size = wide ? 8 : 4
    let codeBytes = (count * 2 + 7) / 8
    guard data.count >= size + codeBytes else { throw Corrupt(reason: "integer data shorter than its codes") }
    func read(_ at: Int, _ bytes: Int) -> Int64 {
      var v: UInt64 = 0
      for k in 0..<bytes { v |= UInt64(data[at + k]) << (8 * UInt64(k)) }
      let shift = UInt64(64 - 8 * bytes)
      return Int64(bitPattern: v << shift) >> Int64(shift)  // sign-extended
    }
    let common = read(0, size)
    var deltas = size + codeBytes
    var previous: Int64 = 0
    var out: [Int64] = []
    out.reserveCapacity(count)
    let widths = wide ? [0, 2, 4, 8] : [0, 1, 2, 4]
    for n in 0..<count {
      let code = Int(data[size + n / 4] >> UInt8(2 * (n % 4))) & 3
      if code == 0 {
        previous &+= common
      } else {
        let w = widths[code]
        guard deltas + w <= data.count else { throw Corrupt(reason: "integer data shorter than its deltas") }
        previous &+= read(deltas, w)
        deltas += w
      }
      out.append(previous)
    }
    return out
  }
}
