/// Deflate (RFC 1951) in Swift alone, for snapshot images on machines without zlib: LZ77 over a
/// 32 KiB window with hash chains, coded with the fixed Huffman codes. A rendered view's flat
/// regions repeat row after row, which matches find; the fixed codes cost a few percent against
/// zlib's dynamic ones and keep the encoder small.
enum PortableDeflate {
  /// `bytes` as one final fixed-Huffman block.
  static func compress(_ bytes: [UInt8]) -> [UInt8] {
    var out = BitWriter()
    out.write(1, count: 1)  // BFINAL
    out.write(1, count: 2)  // BTYPE 01: fixed codes
    let count = bytes.count
    let windowSize = 1 << 15, hashSize = 1 << 15, maxChain = 48
    var head = [Int32](repeating: -1, count: hashSize)
    var previous = [Int32](repeating: -1, count: windowSize)
    bytes.withUnsafeBufferPointer { data in
      func hash(_ i: Int) -> Int {
        (Int(data[i]) << 10 ^ Int(data[i + 1]) << 5 ^ Int(data[i + 2])) & (hashSize - 1)
      }
      func insert(_ i: Int) {
        guard i + 2 < count else { return }
        let h = hash(i)
        previous[i & (windowSize - 1)] = head[h]
        head[h] = Int32(i)
      }
      var i = 0
      while i < count {
        var bestLength = 0, bestDistance = 0
        if i + 2 < count {
          var candidate = Int(head[hash(i)])
          var chain = maxChain
          let limit = min(258, count - i)
          while candidate >= 0, i - candidate <= windowSize - 1, chain > 0 {
            if data[candidate + bestLength] == data[i + bestLength] {
              var length = 0
              while length < limit, data[candidate + length] == data[i + length] { length += 1 }
              if length > bestLength {
                (bestLength, bestDistance) = (length, i - candidate)
                if length == limit { break }
              }
            }
            let next = Int(previous[candidate & (windowSize - 1)])
            guard next < candidate else { break }
            candidate = next
            chain -= 1
          }
        }
        if bestLength >= 3 {
          out.writeLength(bestLength)
          out.writeDistance(bestDistance)
          for k in 0..<bestLength { insert(i + k) }
          i += bestLength
        } else {
          out.writeLiteral(Int(data[i]))
          insert(i)
          i += 1
        }
      }
    }
    out.writeLiteral(256)  // end of block
    return out.finish()
  }

  /// Base lengths and extra bits of length codes 257…285, and of distance codes 0…29.
  static let lengthBase: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
    227,
    258,
  ]
  static let lengthExtra: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
    4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  /// Bits written least significant first, as deflate packs them.
  struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var filled = 0

    mutating func write(_ value: Int, count: Int) {
      buffer |= UInt64(value) << UInt64(filled)
      filled += count
      while filled >= 8 {
        bytes.append(UInt8(truncatingIfNeeded: buffer))
        buffer >>= 8
        filled -= 8
      }
    }

    /// A Huffman code, whose bits go most significant first.
    mutating func writeCode(_ code: Int, length: Int) {
      var reversed = 0
      for k in 0..<length where code & (1 << k) != 0 { reversed |= 1 << (length - 1 - k) }
      write(reversed, count: length)
    }

    /// Literal or length symbol `symbol` (0…287) in the fixed code.
    mutating func writeLiteral(_ symbol: Int) {
      switch symbol {
      case 0...143: writeCode(0x30 + symbol, length: 8)
      case 144...255: writeCode(0x190 + symbol - 144, length: 9)
      case 256...279: writeCode(symbol - 256, length: 7)
      default: writeCode(0xC0 + symbol - 280, length: 8)
      }
    }

    /// A match length (3…258): its code and extra bits.
    mutating func writeLength(_ length: Int) {
      var code = PortableDeflate.lengthBase.count - 1
      while PortableDeflate.lengthBase[code] > length { code -= 1 }
      writeLiteral(257 + code)
      write(length - PortableDeflate.lengthBase[code], count: PortableDeflate.lengthExtra[code])
    }

    /// A match distance (1…32768): its fixed 5-bit code and extra bits.
    mutating func writeDistance(_ distance: Int) {
      var code = PortableDeflate.distanceBase.count - 1
      while PortableDeflate.distanceBase[code] > distance { code -= 1 }
      writeCode(code, length: 5)
      write(distance - PortableDeflate.distanceBase[code], count: PortableDeflate.distanceExtra[code])
    }

    /// The bytes, the last one padded with zeros.
    mutating func finish() -> [UInt8] {
      if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
      (buffer, filled) = (0, 0)
      return bytes
    }
  }
}
