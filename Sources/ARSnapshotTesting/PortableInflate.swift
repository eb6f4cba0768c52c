/// Inflate (RFC 1951) in Swift alone: stored, fixed and dynamic blocks, as any PNG writer or
/// optimiser leaves them. Table-driven: each code's bits, reversed, index a table of 2^15
/// entries. Never reads or writes out of bounds: a stream that ends early, holds an incomplete
/// or over-full code, points before the output's start or would pass `limit` bytes is an error.
enum PortableInflate {
  /// Why a stream could not be inflated.
  struct Failure: Error {
    var reason: String
  }

  /// The bytes `data` inflates to, at most `limit` of them.
  static func decompress(_ data: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
    var input = BitReader(data)
    var out: [UInt8] = []
    out.reserveCapacity(min(limit, 1 << 26))
    var last = false
    while !last {
      last = try input.bits(1) == 1
      switch try input.bits(2) {
      case 0: try stored(&input, into: &out, limit: limit)
      case 1: try codes(&input, Self.fixed.literals, Self.fixed.distances, into: &out, limit: limit)
      case 2:
        let (literals, distances) = try dynamicTables(&input)
        try codes(&input, literals, distances, into: &out, limit: limit)
      default: throw Failure(reason: "a deflate block of the reserved type 3")
      }
    }
    return out
  }

  private static func stored(_ input: inout BitReader, into out: inout [UInt8], limit: Int) throws(Failure) {
    input.alignToByte()
    let length = try input.bits(16), complement = try input.bits(16)
    guard length == ~complement & 0xFFFF else { throw Failure(reason: "a stored block's length check fails") }
    guard out.count + length <= limit else { throw Failure(reason: "more data than the image holds") }
    for _ in 0..<length { out.append(UInt8(try input.bits(8))) }
  }

  /// Decodes literals and matches up to the end-of-block symbol.
  private static func codes(
    _ input: inout BitReader, _ literals: HuffmanTable, _ distances: HuffmanTable, into out: inout [UInt8],
    limit: Int
  ) throws(Failure) {
    while true {
      let symbol = try input.decode(literals)
      if symbol < 256 {
        guard out.count < limit else { throw Failure(reason: "more data than the image holds") }
        out.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let code = symbol - 257
      guard code < PortableDeflate.lengthBase.count else { throw Failure(reason: "a length code past 285") }
      let length = PortableDeflate.lengthBase[code] + (try input.bits(PortableDeflate.lengthExtra[code]))
      let d = try input.decode(distances)
      guard d < PortableDeflate.distanceBase.count else { throw Failure(reason: "a distance code past 29") }
      let distance = PortableDeflate.distanceBase[d] + (try input.bits(PortableDeflate.distanceExtra[d]))
      guard distance <= out.count else { throw Failure(reason: "a match reaching before the data's start") }
      guard out.count + length <= limit else { throw Failure(reason: "more data than the image holds") }
      let start = out.count - distance
      for k in 0..<length { out.append(out[start + k]) }
    }
  }

  /// A dynamic block's two tables, read from its header.
  private static func dynamicTables(_ input: inout BitReader) throws(Failure) -> (HuffmanTable, HuffmanTable)
  {
    let literalCount = try input.bits(5) + 257, distanceCount = try input.bits(5) + 1
    let codeLengthCount = try input.bits(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else { throw Failure(reason: "too many codes in a block") }
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var codeLengths = [Int](repeating: 0, count: 19)
    for k in 0..<codeLengthCount { codeLengths[order[k]] = try input.bits(3) }
    let lengthCode = try HuffmanTable(lengths: codeLengths)
    var lengths: [Int] = []
    while lengths.count < literalCount + distanceCount {
      let symbol = try input.decode(lengthCode)
      switch symbol {
      case 0...15: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw Failure(reason: "a repeat with nothing before it") }
        lengths += repeatElement(previous, count: 3 + (try input.bits(2)))
      case 17: lengths += repeatElement(0, count: 3 + (try input.bits(3)))
      default: lengths += repeatElement(0, count: 11 + (try input.bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount, lengths[256] > 0 else {
      throw Failure(reason: "a block's code lengths overrun, or it has no end-of-block code")
    }
    return (
      try HuffmanTable(lengths: Array(lengths[..<literalCount])),
      try HuffmanTable(lengths: Array(lengths[literalCount...]))
    )
  }

  /// The fixed codes of block type 1.
  static let fixed: (literals: HuffmanTable, distances: HuffmanTable) = {
    let literals = (0..<288).map { s in s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8 }
    return (try! HuffmanTable(lengths: literals), try! HuffmanTable(lengths: [Int](repeating: 5, count: 30)))
  }()

  /// A canonical Huffman code as a lookup table: the next 15 bits of the stream (least
  /// significant first) index the symbol and its code's length.
  struct HuffmanTable {
    static let bits = 15
    /// `symbol << 4 | length`; 0 where no code starts with those bits.
    var entries: [UInt32]

    init(lengths: [Int]) throws(Failure) {
      var counts = [Int](repeating: 0, count: 16)
      for length in lengths { counts[length] += 1 }
      counts[0] = 0
      // Over-full codes are malformed; incomplete ones are allowed (a single distance code),
      // their unused bit patterns left empty and refused when met.
      var left = 1
      for length in 1...15 {
        left = left * 2 - counts[length]
        guard left >= 0 else { throw Failure(reason: "an over-full Huffman code") }
      }
      var next = [Int](repeating: 0, count: 16)
      var code = 0
      for length in 1...15 {
        code = (code + counts[length - 1]) << 1
        next[length] = code
      }
      entries = [UInt32](repeating: 0, count: 1 << Self.bits)
      for (symbol, length) in lengths.enumerated() where length > 0 {
        let code = next[length]
        next[length] += 1
        var reversed = 0
        for k in 0..<length where code & (1 << k) != 0 { reversed |= 1 << (length - 1 - k) }
        var fill = reversed
        while fill < 1 << Self.bits {
          entries[fill] = UInt32(symbol << 4 | length)
          fill += 1 << length
        }
      }
    }
  }

  /// Bits of a byte stream, least significant first; past the end, an error.
  struct BitReader {
    private let data: ArraySlice<UInt8>
    private var position: Int
    private var buffer: UInt64 = 0
    private var filled = 0
    /// Zero bits counted in `buffer` past the data's end, so that a code near the end can be
    /// looked up with the table's full width.
    private var padding = 0

    init(_ data: ArraySlice<UInt8>) {
      self.data = data
      position = data.startIndex
    }

    private mutating func refill() {
      while filled <= 56 {
        if position < data.endIndex {
          buffer |= UInt64(data[position]) << UInt64(filled)
          position += 1
        } else {
          padding += 8
        }
        filled += 8
      }
    }

    mutating func bits(_ count: Int) throws(Failure) -> Int {
      guard count > 0 else { return 0 }
      if filled < count { refill() }
      guard filled - padding >= count else { throw Failure(reason: "the compressed data ends early") }
      let value = Int(buffer & ((1 << UInt64(count)) - 1))
      buffer >>= UInt64(count)
      filled -= count
      return value
    }

    mutating func decode(_ table: HuffmanTable) throws(Failure) -> Int {
      if filled < HuffmanTable.bits { refill() }
      let entry = table.entries[Int(buffer & UInt64((1 << HuffmanTable.bits) - 1))]
      let length = Int(entry & 15)
      guard length > 0 else { throw Failure(reason: "a bit pattern no code has") }
      guard filled - padding >= length else { throw Failure(reason: "the compressed data ends early") }
      buffer >>= UInt64(length)
      filled -= length
      return Int(entry >> 4)
    }

    mutating func alignToByte() {
      let drop = filled % 8
      buffer >>= UInt64(drop)
      filled -= drop
    }
  }
}
