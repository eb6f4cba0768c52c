/// What an LZFSE-compressed block's header says: its sizes, the initial FSE states and bit
/// counts, and the four frequency tables (literal lengths, match lengths, distances, literals).
/// Version 1 stores the fields as plain integers; version 2 (what the encoder writes) packs them
/// into three 64-bit words and codes the frequencies in variable-length fields.
struct LZFSEBlockHeader {
  static let lengthSymbols = 20, matchSymbols = 20, distanceSymbols = 64, literalSymbols = 256
  static let lengthStates = 64, matchStates = 64, distanceStates = 256, literalStates = 1024

  var rawBytes = 0
  var literals = 0, matches = 0
  var literalPayloadBytes = 0, lmdPayloadBytes = 0
  var literalBits = 0, lmdBits = 0
  var literalStates = [Int](repeating: 0, count: 4)
  var lengthState = 0, matchState = 0, distanceState = 0
  /// The 360 frequencies: literal lengths, match lengths, distances, literals, in that order.
  var frequencies = [UInt16](repeating: 0, count: 360)
  /// Where the payload starts (just after the header).
  var payloadStart = 0

  /// The version 1 header at `offset` (after its magic).
  init(version1 bytes: [UInt8], at offset: Int) throws(LZFSEError) {
    let size = 4 + 6 * 4 + 4 + 8 + 4 + 6 + 2 * 360
    guard bytes.count - offset >= size else { throw LZFSEError(at: offset, "a truncated block header") }
    var reader = LittleEndian(bytes, offset + 4)
    rawBytes = reader.u32()
    _ = reader.u32()  // the payload's size: the two parts' below
    literals = reader.u32()
    matches = reader.u32()
    literalPayloadBytes = reader.u32()
    lmdPayloadBytes = reader.u32()
    literalBits = Int(Int32(truncatingIfNeeded: reader.u32()))
    for i in 0..<4 { literalStates[i] = reader.u16() }
    lmdBits = Int(Int32(truncatingIfNeeded: reader.u32()))
    (lengthState, matchState, distanceState) = (reader.u16(), reader.u16(), reader.u16())
    for i in 0..<360 { frequencies[i] = UInt16(reader.u16()) }
    payloadStart = offset + size
    try check(at: offset)
  }

  /// The version 2 header at `offset` (after its magic).
  init(version2 bytes: [UInt8], at offset: Int) throws(LZFSEError) {
    guard bytes.count - offset >= 32 else { throw LZFSEError(at: offset, "a truncated block header") }
    var reader = LittleEndian(bytes, offset + 4)
    rawBytes = reader.u32()
    let (v0, v1, v2) = (reader.u64(), reader.u64(), reader.u64())
    func field(_ v: UInt64, _ from: UInt64, _ width: UInt64) -> Int { Int((v >> from) & ((1 << width) - 1)) }
    (literals, literalPayloadBytes, matches) = (field(v0, 0, 20), field(v0, 20, 20), field(v0, 40, 20))
    literalBits = field(v0, 60, 3) - 7
    for i in 0..<4 { literalStates[i] = field(v1, UInt64(10 * i), 10) }
    (lmdPayloadBytes, lmdBits) = (field(v1, 40, 20), field(v1, 60, 3) - 7)
    let headerSize = field(v2, 0, 32)
    (lengthState, matchState, distanceState) = (field(v2, 32, 10), field(v2, 42, 10), field(v2, 52, 10))
    guard headerSize >= 32, headerSize <= bytes.count - offset else {
      throw LZFSEError(at: offset, "a header of \(headerSize) bytes in a block of \(bytes.count - offset)")
    }
    payloadStart = offset + headerSize
    try decodeFrequencies(bytes[(offset + 32)..<payloadStart])
    try check(at: offset)
  }

  /// The frequencies' variable-length codes: each a 2 to 14-bit field, least significant first.
  private mutating func decodeFrequencies(_ coded: ArraySlice<UInt8>) throws(LZFSEError) {
    var accumulator: UInt32 = 0, count = 0, next = coded.startIndex
    for i in 0..<360 {
      while next < coded.endIndex, count + 8 <= 32 {
        accumulator |= UInt32(coded[next]) << UInt32(count)
        count += 8
        next += 1
      }
      let (value, width) = Self.frequency(accumulator)
      guard width <= count else { throw LZFSEError(at: next, "the frequency table ends early") }
      frequencies[i] = value
      accumulator >>= UInt32(width)
      count -= width
    }
    guard count < 8, next == coded.endIndex else {
      throw LZFSEError(at: next, "bytes left over after the frequency table")
    }
  }

  /// One frequency from the low bits of `bits`, and how many bits it took. The code: a low
  /// 5-bit pattern says the width (2, 3 or 5 bits for 0–7; 8 bits for 8–23; 14 for 24–1047).
  static func frequency(_ bits: UInt32) -> (UInt16, Int) {
    let widths: [Int] = [
      2, 3, 2, 5, 2, 3, 2, 8, 2, 3, 2, 5, 2, 3, 2, 14, 2, 3, 2, 5, 2, 3, 2, 8, 2, 3, 2, 5, 2, 3, 2, 14,
    ]
    let values: [UInt16] = [
      0, 2, 1, 4, 0, 3, 1, 0, 0, 2, 1, 5, 0, 3, 1, 0, 0, 2, 1, 6, 0, 3, 1, 0, 0, 2, 1, 7, 0, 3, 1, 0,
    ]
    let low = Int(bits & 31), width = widths[low]
    switch width {
    case 8: return (8 + UInt16((bits >> 4) & 0xf), 8)
    case 14: return (24 + UInt16((bits >> 4) & 0x3ff), 14)
    default: return (values[low], width)
    }
  }

  /// The limits the decoder relies on.
  private func check(at offset: Int) throws(LZFSEError) {
    guard literalStates.allSatisfy({ $0 < Self.literalStates }),
      lengthState < Self.lengthStates, matchState < Self.matchStates, distanceState < Self.distanceStates
    else { throw LZFSEError(at: offset, "an initial state past its table") }
    guard (-7...0).contains(literalBits), (-7...0).contains(lmdBits) else {
      throw LZFSEError(at: offset, "a bit count outside −7…0")
    }
  }
}

/// Little-endian integers read forwards from a byte array (the caller checked the length).
struct LittleEndian {
  private let bytes: [UInt8]
  private(set) var offset: Int
  init(_ bytes: [UInt8], _ offset: Int) { (self.bytes, self.offset) = (bytes, offset) }

  mutating func u16() -> Int {
    defer { offset += 2 }
    return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
  }
  mutating func u32() -> Int { u16() | u16() << 16 }
  mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
}
