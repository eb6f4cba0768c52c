/// Decodes LZFSE, Apple's compression format (Record3D's depth and confidence images, iOS's
/// `COMPRESSION_LZFSE`), as the reference implementation (github.com/lzfse/lzfse) defines it:
/// a stream of blocks, each raw, LZFSE-compressed (versions 1 and 2) or LZVN-compressed, up to
/// an end-of-stream block.
///
/// Every length, distance, state and table is checked before it is used: hostile bytes give
/// an ``LZFSEError``, never a read out of bounds, and the output never grows past `limit`.
package enum LZFSE {
  static let endOfStream: UInt32 = 0x2478_7662  // "bvx$"
  static let raw: UInt32 = 0x2D78_7662  // "bvx-"
  static let version1: UInt32 = 0x3178_7662  // "bvx1"
  static let version2: UInt32 = 0x3278_7662  // "bvx2"
  static let lzvn: UInt32 = 0x6E78_7662  // "bvxn"

  /// The bytes `compressed` decodes to.
  ///
  /// - Parameter limit: The most bytes the output may have (a decompression bomb stops there).
  package static func decode(_ compressed: [UInt8], limit: Int) throws(LZFSEError) -> [UInt8] {
    var output: [UInt8] = []
    var offset = 0
    while true {
      guard compressed.count - offset >= 4 else {
        throw LZFSEError(at: offset, "the stream ends without its end-of-stream block (truncated)")
      }
      var reader = LittleEndian(compressed, offset)
      let magic = UInt32(reader.u32())
      if magic == endOfStream { return output }
      guard compressed.count - offset >= 8 else { throw LZFSEError(at: offset, "a truncated block header") }
      let rawBytes = reader.u32()
      guard rawBytes <= limit - output.count else {
        throw LZFSEError(at: offset, "a block of \(rawBytes) bytes past the \(limit) expected")
      }
      let before = output.count
      switch magic {
      case raw:
        guard compressed.count - offset - 8 >= rawBytes else {
          throw LZFSEError(at: offset, "a truncated raw block")
        }
        output += compressed[(offset + 8)..<(offset + 8 + rawBytes)]
        offset += 8 + rawBytes
      case lzvn:
        guard compressed.count - offset >= 12 else {
          throw LZFSEError(at: offset, "a truncated block header")
        }
        let payload = reader.u32()
        guard compressed.count - offset - 12 >= payload else {
          throw LZFSEError(at: offset, "a truncated LZVN block")
        }
        try LZVN.decode(
          compressed, from: offset + 12, to: offset + 12 + payload, into: &output, rawBytes: rawBytes)
        offset += 12 + payload
      case version1, version2:
        let header =
          magic == version1
          ? try LZFSEBlockHeader(version1: compressed, at: offset)
          : try LZFSEBlockHeader(version2: compressed, at: offset)
        offset = try decodeBlock(header, compressed, into: &output)
      default:
        throw LZFSEError(at: offset, "no block here (its first bytes are not bvx$, bvx-, bvx1, bvx2 or bvxn)")
      }
      guard output.count - before == rawBytes else {
        throw LZFSEError(at: offset, "a block gave \(output.count - before) bytes where it said \(rawBytes)")
      }
    }
  }

  /// Decodes an LZFSE-compressed block's literals and its (literal length, match length,
  /// distance) triples into `output`; returns the offset just past the block.
  static func decodeBlock(_ header: LZFSEBlockHeader, _ bytes: [UInt8], into output: inout [UInt8])
    throws(LZFSEError) -> Int
  {
    let literalEnd = header.payloadStart + header.literalPayloadBytes
    let end = literalEnd + header.lmdPayloadBytes
    guard header.literalPayloadBytes <= bytes.count, end <= bytes.count else {
      throw LZFSEError(at: header.payloadStart, "a payload past the end of the data (truncated)")
    }
    let literals = try decodeLiterals(header, bytes, end: literalEnd)
    let f = header.frequencies
    let lengths = try FSEDecodingTable(
      states: LZFSEBlockHeader.lengthStates, frequencies: f[0..<20], valueBits: Self.lengthBits,
      valueBase: Self.lengthBase)
    let matches = try FSEDecodingTable(
      states: LZFSEBlockHeader.matchStates, frequencies: f[20..<40], valueBits: Self.matchBits,
      valueBase: Self.matchBase)
    let distances = try FSEDecodingTable(
      states: LZFSEBlockHeader.distanceStates, frequencies: f[40..<104], valueBits: Self.distanceBits,
      valueBase: Self.distanceBase)
    var bits = try FSEBackwardBits(bytes, end: end, initialBits: header.lmdBits)
    var (l, m, d) = (header.lengthState, header.matchState, header.distanceState)
    var literal = 0, distance = 0
    let blockStart = output.count
    for _ in 0..<header.matches {
      try bits.refill()
      let length = try lengths.value(&l, &bits)
      let match = try matches.value(&m, &bits)
      let newDistance = try distances.value(&d, &bits)
      if newDistance != 0 { distance = newDistance }
      guard length <= literals.count - literal else {
        throw LZFSEError(at: literalEnd, "a literal run past the block's \(header.literals) literals")
      }
      guard output.count - blockStart + length + match <= header.rawBytes else {
        throw LZFSEError(at: literalEnd, "matches past the block's \(header.rawBytes) bytes")
      }
      output += literals[literal..<(literal + length)]
      literal += length
      try copyMatch(length: match, distance: distance, in: &output, at: literalEnd)
    }
    // What follows the last match: the literals left, to the block's size.
    let rest = header.rawBytes - (output.count - blockStart)
    guard rest >= 0, rest <= literals.count - literal else {
      throw LZFSEError(at: end, "a block whose literals and matches do not make its \(header.rawBytes) bytes")
    }
    output += literals[literal..<(literal + rest)]
    return end
  }

  /// The block's literals: four interleaved FSE streams, decoded four at a time.
  static func decodeLiterals(_ header: LZFSEBlockHeader, _ bytes: [UInt8], end: Int) throws(LZFSEError)
    -> [UInt8]
  {
    guard header.literals <= header.rawBytes + 4 else {
      throw LZFSEError(at: header.payloadStart, "more literals than the block has bytes")
    }
    let table = try FSEDecodingTable(
      states: LZFSEBlockHeader.literalStates, frequencies: header.frequencies[104..<360])
    var bits = try FSEBackwardBits(bytes, end: end, initialBits: header.literalBits)
    var states = header.literalStates
    var literals = [UInt8](repeating: 0, count: (header.literals + 3) & ~3)
    var i = 0
    while i < header.literals {
      try bits.refill()
      for k in 0..<4 { literals[i + k] = try table.symbol(&states[k], &bits) }
      i += 4
    }
    return Array(literals.prefix(header.literals))
  }

  /// Appends `length` bytes copied from `distance` bytes back in `output` (the copy may
  /// overlap what it writes: a run).
  static func copyMatch(length: Int, distance: Int, in output: inout [UInt8], at offset: Int)
    throws(LZFSEError)
  {
    guard length > 0 else { return }
    guard distance > 0, distance <= output.count else {
      throw LZFSEError(at: offset, "a match \(distance) bytes back, before the output's start")
    }
    var from = output.count - distance
    for _ in 0..<length {
      output.append(output[from])
      from += 1
    }
  }

  // The symbols' values: each a base and that many extra bits.
  static let lengthBits: [UInt8] = Array(repeating: 0, count: 16) + [2, 3, 5, 8]
  static let lengthBase: [Int32] = Array(0...15) + [16, 20, 28, 60]
  static let matchBits: [UInt8] = Array(repeating: 0, count: 16) + [3, 5, 8, 11]
  static let matchBase: [Int32] = Array(0...15) + [16, 24, 56, 312]
  /// Distances: 16 groups of 4 symbols, group g with g extra bits.
  static let distanceBits: [UInt8] = (0..<64).map { UInt8($0 / 4) }
  static let distanceBase: [Int32] = {
    var base: [Int32] = [], next: Int32 = 0
    for symbol in 0..<64 {
      base.append(next)
      next += 1 << (symbol / 4)
    }
    return base
  }()
}
