import ARImage
import CImageCodecs

/// KTX 2.0 texture files (Khronos), as glTF's `KHR_texture_basisu` carries them: Basis
/// Universal's ETC1S images (BasisLZ supercompression) and UASTC images (raw or Zstandard-
/// supercompressed, through libzstd) decoded to 8-bit RGBA in Swift. Only the base level's
/// first layer and face is decoded (what a material samples); its values are as stored
/// (sRGB-encoded for colour textures).
public enum KTX2 {
  /// How a KTX2 file's images are coded.
  public enum Codec: Equatable, Sendable {
    /// Basis Universal ETC1S with BasisLZ supercompression: decoded.
    case etc1s
    /// Basis Universal UASTC (raw or Zstandard-supercompressed): decoded.
    case uastc
    /// Another Vulkan format or scheme, named: not decoded.
    case other(String)
  }

  /// The 12 bytes every KTX 2.0 file starts with: «KTX 20», CR LF, SUB, LF.
  public static let identifier: [UInt8] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
  ]

  /// The file's header fields ARScene uses.
  struct Header {
    var vkFormat, width, height, depth, layers, faces, levels, supercompression: UInt32
    var dfdOffset, dfdLength: UInt32
    var sgdOffset, sgdLength: UInt64
    /// Each level's bytes (offset and length in the file), level 0 first, and its length
    /// before supercompression.
    var levelRanges: [Range<Int>]
    var uncompressedLengths: [UInt64]
    /// The data format descriptor's colour model (163 ETC1S, 166 UASTC) and sample count.
    var colorModel: UInt32, samples: Int
  }

  /// How `bytes` code their images, or nil for bytes that are not a KTX2 file.
  public static func codec(of bytes: [UInt8]) -> Codec? {
    guard let header = try? header(bytes, path: "") else { return nil }
    switch (header.colorModel, header.supercompression) {
    case (163, 1): return .etc1s
    case (166, 0), (166, 2): return .uastc
    default:
      return .other(
        "Vulkan format \(header.vkFormat), colour model \(header.colorModel), supercompression \(header.supercompression)"
      )
    }
  }

  /// Decodes a KTX2 file's base image to 8-bit RGBA; `path` names it in errors.
  ///
  /// - Throws: ``ImageError`` for a file that is not KTX2, is truncated or corrupt, or codes its
  ///   images in a way ARScene does not decode (a plain Vulkan format).
  public static func decodeRGBA8(_ bytes: [UInt8], path: String) throws(ImageError) -> RGBA8Image {
    let header = try header(bytes, path: path)
    let codec = codec(of: bytes)
    if let problem = ImageLimits.problem(width: Int(header.width), height: Int(header.height)) {
      throw .invalid(path: path, format: "KTX2", reason: problem)
    }
    do throws(BasisError) {
      switch codec {
      case .etc1s?: return try etc1sImage(bytes, header)
      case .uastc?: return try uastcImage(bytes, header)
      default: throw BasisError("\(codec.map { "\($0)" } ?? "?"): only ETC1S and UASTC images are decoded")
      }
    } catch {
      throw .invalid(path: path, format: "KTX2", reason: error.reason)
    }
  }

  /// The base image of a UASTC file: layer 0's face 0 of level 0.
  private static func uastcImage(_ bytes: [UInt8], _ header: Header) throws(BasisError) -> RGBA8Image {
    let (width, height) = (Int(header.width), Int(header.height))
    var image = RGBA8Image(width: width, height: height, fill: SIMD4(0, 0, 0, 255))
    try BasisUASTC.decode(
      try uastcBlocks(bytes, header), blocksX: (width + 3) / 4, blocksY: (height + 3) / 4, into: &image)
    return image
  }

  /// The 16-byte blocks of a UASTC file's base image: level 0 (Zstandard-decompressed to its
  /// stated length when supercompressed), whose first `blocks × 16` bytes are layer 0's face 0.
  static func uastcBlocks(_ bytes: [UInt8], _ header: Header) throws(BasisError) -> ArraySlice<UInt8> {
    let needed = 16 * ((Int(header.width) + 3) / 4) * ((Int(header.height) + 3) / 4)
    var level = bytes[header.levelRanges[0]]
    if header.supercompression == 2 {
      // Exactly the blocks of every layer and face: a stated length is never trusted further
      // (a hostile file could ask for gigabytes before a byte is decompressed).
      let length = header.uncompressedLengths[0]
      let expected = UInt64(needed) * UInt64(max(1, header.layers)) * UInt64(header.faces)
      guard length == expected, expected <= UInt64(ImageLimits.maximumPixels) else {
        throw BasisError(
          "a level of \(length) bytes where its blocks take \(expected) (at most a byte a pixel of the image budget)"
        )
      }
      var out = [UInt8](repeating: 0, count: Int(length))
      let written = level.withUnsafeBufferPointer { source in
        out.withUnsafeMutableBufferPointer {
          arscene_zstd_decompress(source.baseAddress, source.count, $0.baseAddress, $0.count)
        }
      }
      guard written == Int(length) else {
        throw BasisError("a Zstandard level that does not decompress to its \(length) bytes")
      }
      level = out[...]
    }
    guard level.count >= needed else {
      throw BasisError("a level of \(level.count) bytes for \(needed) bytes of blocks")
    }
    return level.prefix(needed)
  }

  /// The base image of an ETC1S file: the global data's codebooks, then image 0's colour slice
  /// and, when the descriptor has a second sample, its alpha slice.
  private static func etc1sImage(_ bytes: [UInt8], _ header: Header) throws(BasisError) -> RGBA8Image {
    let sgd = Int(header.sgdOffset)..<Int(header.sgdOffset + header.sgdLength)
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    let images = Int(max(1, header.levels)) * Int(max(1, header.layers)) * Int(header.faces)
    guard sgd.count >= 20 + 20 * images else { throw BasisError("global data shorter than its image list") }
    let (endpointCount, selectorCount) = (u16(sgd.lowerBound), u16(sgd.lowerBound + 2))
    let lengths = (0..<4).map { u32(sgd.lowerBound + 4 + 4 * $0) }
    var start = sgd.lowerBound + 20 + 20 * images
    var sections: [ArraySlice<UInt8>] = []
    for length in lengths.prefix(3) {
      guard length <= sgd.upperBound - start else { throw BasisError("a codebook runs past the global data") }
      sections.append(bytes[start..<start + length])
      start += length
    }
    let codec = try BasisETC1S(
      endpointCount: endpointCount, endpointBytes: sections[0], selectorCount: selectorCount,
      selectorBytes: sections[1], tableBytes: sections[2])
    let level = header.levelRanges[0]
    let desc = sgd.lowerBound + 20
    /// Image 0's slice at `offset`, `length` bytes into the level.
    func slice(_ offset: Int, _ length: Int) throws(BasisError) -> ArraySlice<UInt8> {
      guard offset <= level.count, length <= level.count - offset, length > 0 else {
        throw BasisError("a slice runs past its level's \(level.count) bytes")
      }
      return bytes[(level.lowerBound + offset)..<(level.lowerBound + offset + length)]
    }
    let (width, height) = (Int(header.width), Int(header.height))
    var image = RGBA8Image(width: width, height: height, fill: SIMD4(0, 0, 0, 255))
    let blocks = ((width + 3) / 4, (height + 3) / 4)
    try codec.decodeSlice(
      try slice(u32(desc + 4), u32(desc + 8)), blocksX: blocks.0, blocksY: blocks.1, into: &image,
      alpha: false)
    if header.samples > 1 {
      try codec.decodeSlice(
        try slice(u32(desc + 12), u32(desc + 16)), blocksX: blocks.0, blocksY: blocks.1, into: &image,
        alpha: true)
    }
    return image
  }

  /// The header, level index and data format descriptor, each range checked against the file.
  static func header(_ bytes: [UInt8], path: String) throws(ImageError) -> Header {
    func fail(_ reason: String) -> ImageError { .invalid(path: path, format: "KTX2", reason: reason) }
    guard bytes.starts(with: identifier) else { throw .unknownFormat(path: path) }
    guard bytes.count >= 80 else { throw fail("a header of \(bytes.count) bytes (80 needed)") }
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
    let fields = (12..<48).striding4.map(u32)
    let levelCount = Int(max(1, fields[7]))
    guard fields[7] <= 16, 80 + 24 * levelCount <= bytes.count else { throw fail("\(fields[7]) levels") }
    guard fields[2] >= 1, fields[3] >= 1, fields[6] == 1 || fields[6] == 6, fields[5] <= 2048 else {
      throw fail("a \(fields[2])×\(fields[3]) image of \(fields[6]) faces and \(fields[5]) layers")
    }
    guard fields[4] <= 1 else { throw fail("a 3-D texture (\(fields[4]) deep)") }
    func range(_ offset: UInt64, _ length: UInt64, _ what: String) throws(ImageError) -> Range<Int> {
      guard offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset else {
        throw fail("the \(what) (\(length) bytes at \(offset)) runs past the file's \(bytes.count)")
      }
      return Int(offset)..<Int(offset + length)
    }
    var levels: [Range<Int>] = []
    for k in 0..<levelCount {
      levels.append(try range(u64(80 + 24 * k), u64(88 + 24 * k), "level \(k)"))
    }
    let uncompressed = (0..<levelCount).map { u64(96 + 24 * $0) }
    let dfd = try range(UInt64(u32(48)), UInt64(u32(52)), "data format descriptor")
    guard dfd.count >= 44 else { throw fail("a data format descriptor of \(dfd.count) bytes") }
    let sgd = try range(u64(64), u64(72), "supercompression global data")
    // The descriptor: its total size, then a basic block's header (model in the low byte of
    // its third word) and 16 bytes a sample after 24 bytes of header.
    let blockSize = Int(u32(dfd.lowerBound + 8) >> 16)
    return Header(
      vkFormat: fields[0], width: fields[2], height: fields[3], depth: fields[4], layers: fields[5],
      faces: fields[6], levels: fields[7], supercompression: fields[8], dfdOffset: u32(48),
      dfdLength: u32(52),
      sgdOffset: UInt64(sgd.lowerBound), sgdLength: UInt64(sgd.count), levelRanges: levels,
      uncompressedLengths: uncompressed,
      colorModel: u32(dfd.lowerBound + 12) & 0xFF, samples: max(0, (blockSize - 24) / 16))
  }
}

extension Range<Int> {
  /// Every fourth index from the start: the 32-bit fields of a byte range.
  fileprivate var striding4: StrideTo<Int> { stride(from: lowerBound, to: upperBound, by: 4) }
}
