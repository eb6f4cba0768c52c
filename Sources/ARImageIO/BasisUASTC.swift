import ARImage

/// Basis Universal's UASTC blocks: 128 bits for each 4×4 block, a mode (19 of them, Huffman-
/// coded in the low bits), transcoder hints ARScene skips, a partition pattern for modes of two
/// or three subsets, endpoints in ASTC's integer sequence ranges, then a weight per pixel (two
/// for the dual-plane modes); pixels are the endpoints blended by the weights as ASTC does
/// (decoded as linear values, as Basis Universal's own RGBA output does).
enum BasisUASTC {
  /// What each mode holds: its weight bits and their ASTC range, its endpoints' range, subsets,
  /// planes, components (2 luminance-alpha, 3 RGB, 4 RGBA) and the hint bits to skip.
  struct Mode {
    var weightBits, endpointRange, subsets, planes, components, hintBits: Int
  }

  static let modes: [Mode] = zip6(
    [4, 2, 3, 2, 2, 3, 2, 2, 0, 2, 4, 2, 3, 1, 2, 4, 2, 2, 5],
    [19, 20, 8, 7, 12, 20, 18, 12, 0, 8, 13, 13, 19, 20, 20, 20, 20, 20, 11],
    [1, 1, 2, 3, 2, 1, 1, 2, 0, 2, 1, 1, 1, 1, 1, 1, 2, 1, 1],
    [1, 1, 1, 1, 1, 1, 2, 1, 0, 1, 1, 2, 1, 2, 1, 1, 1, 2, 1],
    [3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 3],
    [15, 15, 15, 15, 15, 15, 15, 15, 0, 23, 17, 17, 17, 23, 23, 23, 23, 23, 15])

  private static func zip6(_ a: [Int], _ b: [Int], _ c: [Int], _ d: [Int], _ e: [Int], _ f: [Int]) -> [Mode] {
    a.indices.map {
      Mode(
        weightBits: a[$0], endpointRange: b[$0], subsets: c[$0], planes: d[$0], components: e[$0],
        hintBits: f[$0])
    }
  }

  /// Each mode's prefix code (code, length), read from the block's lowest bits.
  static let modeCodes: [(code: Int, length: Int)] = [
    (0x1, 4), (0x35, 6), (0x1D, 5), (0x3, 5), (0x13, 5), (0xB, 5), (0x1B, 5), (0x7, 5), (0x17, 5), (0xF, 5),
    (0x2, 3), (0x0, 2), (0x6, 3), (0x1F, 5), (0xD, 5), (0x5, 7), (0x15, 6), (0x25, 6), (0x9, 4),
  ]

  /// The mode whose code the low 7 bits start with, for each of their 128 values.
  static let modeOfLowBits: [Int?] = (0..<128).map { bits in
    modeCodes.firstIndex { bits & ((1 << $0.length) - 1) == $0.code }
  }

  /// ASTC's partition seeds of UASTC's common patterns: two subsets (modes 2, 4, 9, 16), three
  /// subsets (mode 3), and two subsets matching BC7's three (mode 7).
  static let seeds2 = [
    28, 20, 16, 29, 91, 9, 107, 72, 149, 204, 50, 114, 496, 17, 78, 39, 252, 828, 43, 156, 116, 210, 476, 273,
    684, 359, 246, 195, 694, 524,
  ]
  static let seeds3 = [260, 74, 32, 156, 183, 15, 745, 0, 335, 902, 254]
  static let seeds7 = [
    36, 48, 61, 137, 161, 183, 226, 281, 302, 307, 479, 495, 593, 594, 605, 799, 812, 988, 993,
  ]

  /// ASTC's integer sequence ranges: bits, and a trit or a quint above them.
  static let ranges: [(bits: Int, trits: Int, quints: Int)] = [
    (1, 0, 0), (0, 1, 0), (2, 0, 0), (0, 0, 1), (1, 1, 0), (3, 0, 0), (1, 0, 1), (2, 1, 0), (4, 0, 0),
    (2, 0, 1),
    (3, 1, 0), (5, 0, 0), (3, 0, 1), (4, 1, 0), (6, 0, 0), (4, 0, 1), (5, 1, 0), (7, 0, 0), (5, 0, 1),
    (6, 1, 0),
    (8, 0, 0),
  ]

  /// Each pixel's weight in 64ths for weights of 1 to 5 bits (ASTC's unquantised weights).
  static let weightValues: [[Int]] = [
    [], [0, 64], [0, 21, 43, 64], [0, 9, 18, 27, 37, 46, 55, 64],
    [0, 4, 8, 12, 17, 21, 25, 29, 35, 39, 43, 47, 52, 56, 60, 64],
    [
      0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54,
      56, 58, 60, 62, 64,
    ],
  ]

  /// Decodes `bytes` (16 a block, `blocksX × blocksY` of them, row by row) into `image`.
  static func decode(_ bytes: ArraySlice<UInt8>, blocksX: Int, blocksY: Int, into image: inout RGBA8Image)
    throws(BasisError)
  {
    guard bytes.count == 16 * blocksX * blocksY else {
      throw BasisError("\(bytes.count) bytes for \(blocksX * blocksY) UASTC blocks")
    }
    var start = bytes.startIndex
    for by in 0..<blocksY {
      for bx in 0..<blocksX {
        let pixels = try block(bytes[start..<start + 16])
        start += 16
        for row in 0..<min(4, image.height - 4 * by) {
          for column in 0..<min(4, image.width - 4 * bx) {
            image[4 * bx + column, 4 * by + row] = pixels[4 * row + column]
          }
        }
      }
    }
  }

  /// One block's 16 pixels, row by row.
  static func block(_ bytes: ArraySlice<UInt8>) throws(BasisError) -> [SIMD4<UInt8>] {
    var r = BlockBits(bytes)
    guard let modeIndex = modeOfLowBits[Int(bytes[bytes.startIndex] & 127)] else {
      throw BasisError("a UASTC block of an unknown mode")
    }
    r.skip(modeCodes[modeIndex].length)
    if modeIndex == 8 {  // one colour
      let c = SIMD4(UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8)), UInt8(r.bits(8)))
      return Array(repeating: c, count: 16)
    }
    let mode = modes[modeIndex]
    r.skip(mode.hintBits)
    var pattern = [Int](repeating: 0, count: 16)
    if mode.subsets > 1 {
      let index = r.bits(mode.subsets == 3 ? 4 : 5)
      let seeds = mode.subsets == 3 ? seeds3 : modeIndex == 7 ? seeds7 : seeds2
      guard index < seeds.count else { throw BasisError("a UASTC block of pattern \(index)") }
      pattern = (0..<16).map { partition(seed: seeds[index], x: $0 & 3, y: $0 >> 2, subsets: mode.subsets) }
    }
    var dualPlaneComponent = -1
    if mode.planes == 2 { dualPlaneComponent = modeIndex == 17 ? 3 : r.bits(2) }
    let endpoints = try self.endpoints(
      &r, count: mode.components * 2 * mode.subsets, range: mode.endpointRange)
    // A subset's first pixel (its anchor) has one weight bit fewer: its top bit is 0.
    let anchors = (0..<mode.subsets).map { s in pattern.firstIndex(of: s) ?? 0 }
    var weights = [Int](repeating: 0, count: 16 * mode.planes)
    for i in weights.indices {
      let anchor = anchors.contains(i / mode.planes)
      weights[i] = r.bits(mode.weightBits - (anchor ? 1 : 0))
    }
    return pixels(mode, endpoints, weights, pattern, dualPlaneComponent)
  }

  /// The endpoints' unquantised values (0–255): the trits or quints of each group of 5 or 3
  /// values packed as one base-3 or base-5 number first, then each value's low bits.
  private static func endpoints(_ r: inout BlockBits, count: Int, range: Int) throws(BasisError) -> [Int] {
    let (bits, trits, quints) = ranges[range]
    var packed: [Int] = []
    if trits + quints > 0 {
      let group = trits > 0 ? 5 : 3
      let groups = (count + group - 1) / group
      for g in 0..<groups {
        let left = count - g * group
        let width =
          trits > 0
          ? (left >= 5 ? 8 : [0, 2, 4, 5, 7][left]) : (left >= 3 ? 7 : [0, 3, 5][left])
        packed.append(r.bits(width))
      }
    }
    var out: [Int] = []
    for i in 0..<count {
      var value = r.bits(bits)
      if !packed.isEmpty {
        let base = trits > 0 ? 3 : 5, group = trits > 0 ? 5 : 3
        var digits = packed[i / group]
        for _ in 0..<(i % group) { digits /= base }
        value |= (digits % base) << bits
      }
      out.append(unquantised(value, range: range))
    }
    return out
  }

  /// ASTC's endpoint unquantisation of a value in `range` (bits replicated; or a trit or quint
  /// scaled by C, bits spread by the spec's B pattern, A's sign bit folded in).
  static func unquantised(_ value: Int, range: Int) -> Int {
    let (bits, trits, quints) = ranges[range]
    let low = value & ((1 << bits) - 1)
    guard trits + quints > 0 else {
      var out = 0, left = 8
      while left > 0 {
        let n = min(left, bits)
        out |= (low >> (bits - n)) << (left - n)
        left -= n
      }
      return out
    }
    let (pattern, c) = unquantisation[range]!
    let a = low & 1 == 1 ? 511 : 0
    var b = 0
    for letter in pattern.utf8 {
      b <<= 1
      if letter != UInt8(ascii: "0") { b |= (low >> Int(letter - UInt8(ascii: "a"))) & 1 }
    }
    let v = ((value >> bits) * c + b) ^ a
    return (a & 0x80) | (v >> 2)
  }

  /// The ASTC specification's B patterns and C factors for the ranges with trits or quints.
  static let unquantisation: [Int: (String, Int)] = [
    4: ("000000000", 204), 6: ("000000000", 113), 7: ("b000b0bb0", 93), 9: ("b0000bb00", 54),
    10: ("cb000cbcb", 44), 12: ("cb0000cbc", 26), 13: ("dcb000dcb", 22), 15: ("dcb0000dc", 13),
    16: ("edcb000ed", 11), 18: ("edcb0000e", 6), 19: ("fedcb000f", 5),
  ]

  /// The block's pixels: each subset's endpoint pair blended by each pixel's weight, the dual
  /// plane's component by the second weight.
  private static func pixels(
    _ mode: Mode, _ endpoints: [Int], _ weights: [Int], _ pattern: [Int], _ dualComponent: Int
  ) -> [SIMD4<UInt8>] {
    let table = weightValues[mode.weightBits]
    func interpolate(_ low: Int, _ high: Int, _ w: Int) -> UInt8 {
      let (l, h) = ((low << 8) | low, (high << 8) | high)
      return UInt8(((l * (64 - w) + h * w + 32) >> 6) >> 8)
    }
    return (0..<16).map { i in
      let s = pattern[i], n = mode.components
      let e = endpoints[(s * n * 2)..<(s * n * 2 + n * 2)].map { $0 }
      // Each component's low and high endpoint (luminance-alpha: L L L A).
      let pairs: [(Int, Int)] =
        n == 2
        ? [(e[0], e[1]), (e[0], e[1]), (e[0], e[1]), (e[2], e[3])]
        : (0..<4).map { c in c < n ? (e[2 * c], e[2 * c + 1]) : (255, 255) }
      var pixel = SIMD4<UInt8>.zero
      for c in 0..<4 {
        let w = mode.planes == 2 && c == dualComponent ? weights[2 * i + 1] : weights[mode.planes * i]
        pixel[c] =
          c >= n && n != 2 ? 255 : interpolate(pairs[c].0, pairs[c].1, table[min(w, table.count - 1)])
      }
      return pixel
    }
  }

  /// ASTC's partition of texel (x, y) of a 4×4 block (a small block: coordinates doubled) for
  /// `seed` and `subsets` partitions.
  static func partition(seed: Int, x: Int, y: Int, subsets: Int) -> Int {
    let (x, y) = (x << 1, y << 1)
    let seed = seed + (subsets - 1) * 1024
    var p = UInt32(truncatingIfNeeded: seed)
    p ^= p >> 15
    p &-= p << 17
    p &+= p << 7
    p &+= p << 4
    p ^= p >> 5
    p &+= p << 16
    p ^= p >> 7
    p ^= p >> 3
    p ^= p << 6
    p ^= p >> 17
    let rnum = p
    // The first six 4-bit seeds, squared (those a 2-D block with at most three partitions uses),
    // shifted as the seed's low bits say.
    let sh1: UInt32 = seed & 1 == 1 ? (seed & 2 != 0 ? 4 : 5) : (subsets == 3 ? 6 : 5)
    let sh2: UInt32 = seed & 1 == 1 ? (subsets == 3 ? 6 : 5) : (seed & 2 != 0 ? 4 : 5)
    var s: [Int] = []
    for k in 0..<6 {
      let nibble: UInt32 = (rnum >> UInt32(4 * k)) & 0xF
      let squared: UInt32 = nibble * nibble
      s.append(Int(squared >> (k % 2 == 0 ? sh1 : sh2)))
    }
    let r = Int(rnum)
    let a: Int = (s[0] * x + s[1] * y + (r >> 14)) & 0x3F
    let b: Int = (s[2] * x + s[3] * y + (r >> 10)) & 0x3F
    let c: Int = subsets < 3 ? 0 : (s[4] * x + s[5] * y + (r >> 6)) & 0x3F
    // A fourth partition never occurs in UASTC (at most three subsets).
    if a >= b && a >= c { return 0 }
    if b >= c { return 1 }
    return 2
  }
}

/// A 128-bit block read from its least significant bit up.
private struct BlockBits {
  let low: UInt64, high: UInt64
  var at = 0

  init(_ bytes: ArraySlice<UInt8>) {
    var (l, h): (UInt64, UInt64) = (0, 0)
    for k in 0..<8 {
      l |= UInt64(bytes[bytes.startIndex + k]) << UInt64(8 * k)
      h |= UInt64(bytes[bytes.startIndex + 8 + k]) << UInt64(8 * k)
    }
    (low, high) = (l, h)
  }

  mutating func skip(_ n: Int) { at += n }

  /// The next `n` bits (at most 32; zeros past the block's end).
  mutating func bits(_ n: Int) -> Int {
    var value = 0
    for k in 0..<n {
      let position = at + k
      guard position < 128 else { break }
      let word = position < 64 ? low : high
      value |= Int((word >> UInt64(position & 63)) & 1) << k
    }
    at += n
    return value
  }
}
