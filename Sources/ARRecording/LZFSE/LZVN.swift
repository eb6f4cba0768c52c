/// Decodes an LZVN block (what LZFSE's encoder writes for small inputs): a byte-aligned run of
/// opcodes, each a literal run, a match, or both, up to an end-of-stream opcode.
enum LZVN {
  /// Appends what `bytes[start..<end]` decodes to onto `output`, `rawBytes` bytes of it.
  static func decode(
    _ bytes: [UInt8], from start: Int, to end: Int, into output: inout [UInt8], rawBytes: Int
  )
    throws(LZFSEError)
  {
    let blockStart = output.count
    var p = start, distance = 0
    func need(_ n: Int) throws(LZFSEError) {
      guard end - p >= n else { throw LZFSEError(at: p, "an LZVN opcode past the block's end (truncated)") }
    }
    while true {
      try need(1)
      let op = Int(bytes[p])
      var (literals, match, size) = (0, 0, 1)
      switch op {
      case 0x06: return try finish(output.count - blockStart, rawBytes, at: p)  // end of stream
      case 0x0E, 0x16:  // no operation
        p += 1
        continue
      case 0x70...0x7F, 0xD0...0xDF, 0x1E, 0x26, 0x2E, 0x36, 0x3E:
        throw LZFSEError(at: p, "an undefined LZVN opcode 0x\(String(op, radix: 16))")
      case 0xA0...0xBF:  // 101LLMMM DDDDDDMM DDDDDDDD
        try need(3)
        let next = Int(bytes[p + 1]) | Int(bytes[p + 2]) << 8
        (literals, match, size) = ((op >> 3) & 3, ((op & 7) << 2 | (next & 3)) + 3, 3)
        distance = next >> 2
      case 0xE0:  // a long literal run
        try need(2)
        (literals, size) = (Int(bytes[p + 1]) + 16, 2)
      case 0xE1...0xEF: literals = op & 0xF
      case 0xF0:  // a long match at the previous distance
        try need(2)
        (match, size) = (Int(bytes[p + 1]) + 16, 2)
      case 0xF1...0xFF: match = op & 0xF
      default:  // LLMMMDDD: a small (D 11 bits), large (D 16 bits) or previous distance
        (literals, match) = (op >> 6, ((op >> 3) & 7) + 3)
        switch op & 7 {
        case 6: break
        case 7:
          try need(3)
          (distance, size) = (Int(bytes[p + 1]) | Int(bytes[p + 2]) << 8, 3)
        default:
          try need(2)
          (distance, size) = ((op & 7) << 8 | Int(bytes[p + 1]), 2)
        }
      }
      try need(size + literals)
      guard output.count - blockStart + literals + match <= rawBytes else {
        throw LZFSEError(at: p, "an LZVN block past its \(rawBytes) bytes")
      }
      output += bytes[(p + size)..<(p + size + literals)]
      p += size + literals
      try LZFSE.copyMatch(length: match, distance: distance, in: &output, at: p)
    }
  }

  private static func finish(_ produced: Int, _ rawBytes: Int, at p: Int) throws(LZFSEError) {
    guard produced == rawBytes else {
      throw LZFSEError(at: p, "an LZVN block of \(produced) bytes where it said \(rawBytes)")
    }
  }
}
