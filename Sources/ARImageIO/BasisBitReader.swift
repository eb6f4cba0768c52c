/// Basis Universal's bit stream: bits taken from the least significant end of each byte, bytes
/// in order; past the end it reads zeros (as Basis's own decoder does), and ``overran`` says so.
struct BasisBitReader {
  private let bytes: ArraySlice<UInt8>
  private var next: Int
  private var buffer: UInt64 = 0
  private var buffered = 0
  /// Whether a read went past the last byte (a truncated or corrupt stream).
  private(set) var overran = false

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    next = bytes.startIndex
  }

  /// The next `count` bits (at most 32), the first read in the lowest bit.
  mutating func bits(_ count: Int) -> UInt32 {
    guard count > 0 else { return 0 }
    fill(count)
    let value = UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(count)) - 1))
    buffer >>= UInt64(count)
    buffered -= count
    return value
  }

  /// At least `count` bits in the buffer.
  private mutating func fill(_ count: Int) {
    while buffered < count {
      var byte: UInt8 = 0
      if next < bytes.endIndex {
        byte = bytes[next]
        next += 1
      } else {
        overran = true
      }
      buffer |= UInt64(byte) << UInt64(buffered)
      buffered += 8
    }
  }

  /// A variable-length number in chunks of `chunkBits` bits, each followed by a bit saying
  /// whether another follows (at most 32 bits of value).
  mutating func vlc(_ chunkBits: Int) -> UInt32 {
    var value: UInt32 = 0, shift: UInt32 = 0
    while true {
      let chunk = bits(chunkBits + 1)
      value |= (chunk & ((1 << UInt32(chunkBits)) - 1)) << shift
      shift += UInt32(chunkBits)
      if chunk & (1 << UInt32(chunkBits)) == 0 || shift >= 32 { return value }
    }
  }

  /// The next symbol of `table`'s canonical prefix code, its code's first bit read first.
  mutating func symbol(_ table: BasisHuffmanTable) throws(BasisError) -> Int {
    guard table.maximumLength > 0 else { throw BasisError("a symbol of an empty Huffman table") }
    var code = 0, first = 0, index = 0
    for length in 1...table.maximumLength {
      code |= Int(bits(1))
      let count = table.counts[length]
      if code - first < count { return table.symbols[index + code - first] }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw BasisError("a code that is in no Huffman table")
  }

  /// A Huffman table as Basis writes one: the number of symbols, then their code lengths, coded
  /// with a code of code lengths (sent in a fixed order) and runs of zeros and repeats.
  mutating func huffmanTable() throws(BasisError) -> BasisHuffmanTable {
    let symbolCount = Int(bits(14))
    guard symbolCount > 0 else { return BasisHuffmanTable(lengths: []) }
    let lengthCodeCount = Int(bits(5))
    guard (1...21).contains(lengthCodeCount) else { throw BasisError("\(lengthCodeCount) code-length codes") }
    var lengthCodeLengths = [UInt8](repeating: 0, count: 21)
    for k in 0..<lengthCodeCount { lengthCodeLengths[Self.lengthCodeOrder[k]] = UInt8(bits(3)) }
    let lengthCode = BasisHuffmanTable(lengths: lengthCodeLengths)
    try lengthCode.check()
    var lengths: [UInt8] = []
    lengths.reserveCapacity(symbolCount)
    while lengths.count < symbolCount {
      let c = try symbol(lengthCode)
      switch c {
      case 0...16: lengths.append(UInt8(c))
      case 17: lengths += repeatElement(0, count: Int(bits(3)) + 3)
      case 18: lengths += repeatElement(0, count: Int(bits(7)) + 11)
      default:
        guard let previous = lengths.last, previous != 0 else {
          throw BasisError("a repeat of no code length")
        }
        lengths += repeatElement(previous, count: c == 19 ? Int(bits(2)) + 3 : Int(bits(7)) + 7)
      }
    }
    guard lengths.count == symbolCount else {
      throw BasisError("code lengths run past \(symbolCount) symbols")
    }
    let table = BasisHuffmanTable(lengths: lengths)
    try table.check()
    return table
  }

  /// The order in which the code-length code's own lengths are sent.
  private static let lengthCodeOrder = [
    17, 18, 19, 20, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 16,
  ]
}

/// A canonical prefix code: how many codes each length has, and the symbols in code order.
struct BasisHuffmanTable {
  var counts: [Int]
  var symbols: [Int]
  var maximumLength: Int
  /// How many symbols have a code.
  var used: Int { symbols.count }

  init(lengths: [UInt8]) {
    maximumLength = Int(lengths.max() ?? 0)
    counts = [Int](repeating: 0, count: maximumLength + 1)
    for length in lengths where length > 0 { counts[Int(length)] += 1 }
    symbols = lengths.indices.filter { lengths[$0] > 0 }.sorted { (lengths[$0], $0) < (lengths[$1], $1) }
  }

  /// An error unless the lengths make a complete prefix code (one symbol alone is allowed).
  func check() throws(BasisError) {
    guard used > 1 else { return }
    var left = 1
    for length in 1...max(1, maximumLength) {
      left = 2 * left - (length < counts.count ? counts[length] : 0)
      guard left >= 0 else { throw BasisError("code lengths that oversubscribe the code") }
    }
    guard left == 0 else { throw BasisError("code lengths that leave the code incomplete") }
  }
}

/// Why a Basis Universal stream cannot be decoded.
struct BasisError: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
