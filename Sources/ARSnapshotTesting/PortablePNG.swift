import ARImage

/// PNG files read and written in Swift alone, so that snapshot tests build wherever Swift does
/// (no libpng or zlib): references are stored as 8-bit RGBA PNGs, and read back from any
/// non-interlaced PNG an optimiser may have rewritten them as (grey, grey-alpha, RGB, RGBA and
/// palette images, 1- to 16-bit, every filter, stored, fixed and dynamic deflate blocks).
public enum PortablePNG {
  /// The largest side read, pixels (a reference is a phone's screen).
  public static let maximumSide = 16384

  /// `image` as a PNG file: 8-bit RGBA, each row filtered by the filter that leaves the smallest
  /// sum of magnitudes (libpng's heuristic), compressed by a deflate written in Swift (LZ77 with the fixed Huffman codes).
  public static func encode(_ image: RGBA8Image) -> [UInt8] {
    let (width, height) = (image.width, image.height)
    let stride = width * 4
    var raw = [UInt8](repeating: 0, count: image.pixels.count * 4)
    for (i, p) in image.pixels.enumerated() {
      (raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]) = (p.x, p.y, p.z, p.w)
    }
    var filtered: [UInt8] = []
    filtered.reserveCapacity(height * (stride + 1))
    var candidate = [UInt8](repeating: 0, count: stride)
    for y in 0..<height {
      var best: (type: UInt8, row: [UInt8], cost: Int)?
      for type in UInt8(0)...4 {
        for x in 0..<stride {
          let a = x >= 4 ? raw[y * stride + x - 4] : 0
          let b = y > 0 ? raw[(y - 1) * stride + x] : 0
          let c = x >= 4 && y > 0 ? raw[(y - 1) * stride + x - 4] : 0
          candidate[x] = raw[y * stride + x] &- predictor(type, a, b, c)
        }
        let cost = candidate.reduce(0) { $0 + Int(min($1, 0 &- $1)) }
        if best == nil || cost < best!.cost { best = (type, candidate, cost) }
      }
      filtered.append(best!.type)
      filtered += best!.row
    }
    var zlib: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, fastest-level flag
    zlib += PortableDeflate.compress(filtered)
    zlib += bigEndian(adler32(filtered))
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0], to: &file)
    appendChunk("IDAT", zlib, to: &file)
    appendChunk("IEND", [], to: &file)
    return file
  }

  /// The image of a PNG file's `bytes`, as 8-bit RGBA (16-bit samples rounded to 8 bits).
  ///
  /// - Throws: ``SnapshotError/unreadableReference(path:reason:)`` naming `path` and what is
  ///   wrong: not a PNG, a chunk whose CRC fails, an interlaced or unknown layout, data that
  ///   does not inflate to the image's size.
  public static func decode(_ bytes: [UInt8], path: String) throws(SnapshotError) -> RGBA8Image {
    func fail(_ reason: String) -> SnapshotError { .unreadableReference(path: path, reason: reason) }
    let chunks = try readChunks(bytes, path: path)
    guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else {
      throw fail("no IHDR chunk first")
    }
    let h = Array(header.data)
    let width = Int(readUInt32(h, 0)), height = Int(readUInt32(h, 4))
    let (depth, colour, interlace) = (Int(h[8]), Int(h[9]), h[12])
    guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
      throw fail("an image of \(width)×\(height) pixels (1 to \(maximumSide) a side are read)")
    }
    guard h[10] == 0, h[11] == 0 else { throw fail("an unknown compression or filter method") }
    guard interlace == 0 else {
      throw fail("an interlaced (Adam7) PNG: save the reference without interlacing")
    }
    let channels: Int
    switch (colour, depth) {
    case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
    case (4, 8), (4, 16): channels = 2
    case (2, 8), (2, 16): channels = 3
    case (6, 8), (6, 16): channels = 4
    default: throw fail("colour type \(colour) at \(depth) bits is not a PNG layout")
    }
    let palette = chunks.first { $0.type == "PLTE" }.map { Array($0.data) } ?? []
    let transparency = chunks.first { $0.type == "tRNS" }.map { Array($0.data) } ?? []
    if colour == 3, palette.isEmpty || palette.count % 3 != 0 {
      throw fail("a palette image without a palette")
    }
    let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
    guard data.count > 6, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0,
      data[1] & 0x20 == 0
    else {
      throw fail("image data that is not a zlib stream")
    }
    let rowBytes = (width * channels * depth + 7) / 8
    let expected = height * (rowBytes + 1)
    let inflated: [UInt8]
    do { inflated = try PortableInflate.decompress(data[2...], limit: expected) } catch {
      throw fail("the image data does not inflate: \(error.reason)")
    }
    guard inflated.count == expected else {
      throw fail("the image data holds \(inflated.count) bytes where \(width)×\(height) needs \(expected)")
    }
    let rows = try unfilter(
      inflated, rowBytes: rowBytes, height: height, step: max(1, channels * depth / 8), path: path)
    return pixels(
      rows, width: width, height: height, layout: (colour, depth, channels), palette: palette,
      transparency: transparency)
  }

  /// Each row with its filter undone.
  static func unfilter(_ data: [UInt8], rowBytes: Int, height: Int, step: Int, path: String)
    throws(SnapshotError)
    -> [UInt8]
  {
    var rows = [UInt8](repeating: 0, count: rowBytes * height)
    for y in 0..<height {
      let type = data[y * (rowBytes + 1)]
      guard type <= 4 else {
        throw .unreadableReference(path: path, reason: "row \(y) has filter type \(type) (0 to 4 exist)")
      }
      for x in 0..<rowBytes {
        let a = x >= step ? rows[y * rowBytes + x - step] : 0
        let b = y > 0 ? rows[(y - 1) * rowBytes + x] : 0
        let c = x >= step && y > 0 ? rows[(y - 1) * rowBytes + x - step] : 0
        rows[y * rowBytes + x] = data[y * (rowBytes + 1) + 1 + x] &+ predictor(type, a, b, c)
      }
    }
    return rows
  }

  /// The RGBA pixels of unfiltered `rows` in `layout` (colour type, bit depth, channels).
  static func pixels(
    _ rows: [UInt8], width: Int, height: Int, layout: (colour: Int, depth: Int, channels: Int),
    palette: [UInt8], transparency: [UInt8]
  ) -> RGBA8Image {
    let rowBytes = rows.count / height
    let (colour, depth, channels) = layout
    /// Sample `s` of pixel `x` in row `y`, at the file's bit depth.
    func sample(_ x: Int, _ y: Int, _ s: Int) -> Int {
      let row = y * rowBytes
      switch depth {
      case 16:
        return Int(rows[row + (x * channels + s) * 2]) << 8 | Int(rows[row + (x * channels + s) * 2 + 1])
      case 8: return Int(rows[row + x * channels + s])
      default:
        let bit = x * depth
        return Int(rows[row + bit / 8] >> UInt8(8 - depth - bit % 8)) & ((1 << depth) - 1)
      }
    }
    let top = (1 << depth) - 1
    // 16-bit samples rounded (v·255/65535), as libpng's png_set_scale_16 gives them.
    func byte(_ value: Int) -> UInt8 {
      UInt8(depth == 16 ? (value * 255 + 32767) / 65535 : value * 255 / top)
    }
    let key =
      transparency.count >= 2 && colour != 3
      ? (0..<transparency.count / 2).map {
        Int(transparency[2 * $0]) << 8 | Int(transparency[2 * $0 + 1])
      } : []
    var pixels: [SIMD4<UInt8>] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        switch colour {
        case 3:
          let i = sample(x, y, 0)
          let entry =
            3 * i + 2 < palette.count ? SIMD3(palette[3 * i], palette[3 * i + 1], palette[3 * i + 2]) : .zero
          pixels.append(SIMD4(entry.x, entry.y, entry.z, i < transparency.count ? transparency[i] : 255))
        case 0:
          let g = sample(x, y, 0)
          let v = byte(g)
          pixels.append(SIMD4(v, v, v, key.first == g ? 0 : 255))
        case 4:
          pixels.append(
            SIMD4(byte(sample(x, y, 0)), byte(sample(x, y, 0)), byte(sample(x, y, 0)), byte(sample(x, y, 1))))
        case 2:
          let (r, g, b) = (sample(x, y, 0), sample(x, y, 1), sample(x, y, 2))
          pixels.append(SIMD4(byte(r), byte(g), byte(b), key == [r, g, b] ? 0 : 255))
        default:
          pixels.append(
            SIMD4(byte(sample(x, y, 0)), byte(sample(x, y, 1)), byte(sample(x, y, 2)), byte(sample(x, y, 3))))
        }
      }
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// A filter's prediction from the left (`a`), upper (`b`) and upper-left (`c`) bytes.
  static func predictor(_ type: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    switch type {
    case 1: return a
    case 2: return b
    case 3: return UInt8((Int(a) + Int(b)) / 2)
    case 4:
      let p = Int(a) + Int(b) - Int(c)
      let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    default: return 0
    }
  }

  /// The file's chunks after the signature, each CRC checked, up to IEND.
  static func readChunks(_ bytes: [UInt8], path: String) throws(SnapshotError) -> [(
    type: String, data: ArraySlice<UInt8>
  )] {
    func fail(_ reason: String) -> SnapshotError { .unreadableReference(path: path, reason: reason) }
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      throw fail("not a PNG file")
    }
    var chunks: [(type: String, data: ArraySlice<UInt8>)] = []
    var at = 8
    while true {
      guard at + 12 <= bytes.count else { throw fail("the file ends before its IEND chunk (truncated?)") }
      let length = Int(readUInt32(bytes, at))
      guard length <= bytes.count - at - 12 else {
        throw fail("a chunk at byte \(at) runs past the file's end (truncated?)")
      }
      let typeBytes = bytes[(at + 4)..<(at + 8)]
      guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
        throw fail("a chunk at byte \(at) has no name")
      }
      let type = String(decoding: typeBytes, as: UTF8.self)
      let data = bytes[(at + 8)..<(at + 8 + length)]
      guard crc32(bytes[(at + 4)..<(at + 8 + length)]) == readUInt32(bytes, at + 8 + length) else {
        throw fail("the \(type) chunk at byte \(at) fails its CRC (the file is damaged)")
      }
      if type == "IEND" { return chunks }
      chunks.append((type, data))
      at += 12 + length
    }
  }

  static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    let body = Array(type.utf8) + data
    file += bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body[...]))
  }

  static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
      UInt8(truncatingIfNeeded: value),
    ]
  }

  static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var (a, b): (UInt32, UInt32) = (1, 0)
    for chunk in stride(from: 0, to: bytes.count, by: 5552) {
      for byte in bytes[chunk..<min(chunk + 5552, bytes.count)] {
        a += UInt32(byte)
        b += a
      }
      (a, b) = (a % 65521, b % 65521)
    }
    return b << 16 | a
  }
}
