import ARFiles
import ARImage

/// Image files by path, format chosen by content (the PNG, JPEG, KTX2 or WebP signature), not by
/// extension.
public enum ImageFile {
  /// Reads a PNG, JPEG, KTX2 (ETC1S or UASTC) or still WebP file as 8-bit RGBA.
  ///
  /// - Throws: ``ImageError`` naming `path`.
  public static func readRGBA8(_ path: String) throws(ImageError) -> RGBA8Image {
    try decodeRGBA8(try contents(path), name: path)
  }

  /// Decodes PNG, JPEG, KTX2 (ETC1S or UASTC) or still WebP `bytes` (an image inside a model
  /// file) as 8-bit RGBA; `name` says where they came from in errors.
  ///
  /// - Throws: ``ImageError`` naming `name`.
  public static func decodeRGBA8(_ bytes: [UInt8], name: String) throws(ImageError) -> RGBA8Image {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNG.decodeRGBA8(bytes, path: name) }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try JPEG.decodeRGBA8(bytes, path: name) }
    if bytes.starts(with: KTX2.identifier) { return try KTX2.decodeRGBA8(bytes, path: name) }
    if WebP.isWebP(bytes) { return try WebP.decodeRGBA8(bytes, path: name) }
    throw .unknownFormat(path: name)
  }

  /// Reads a PNG, JPEG, KTX2 or WebP file's luma as 8-bit grey: a JPEG's own Y channel (decoded
  /// without its colours), others' Rec. 601 luma of their RGBA (`0.299 r + 0.587 g + 0.114 b`,
  /// rounded), as OpenCV's `IMREAD_GRAYSCALE` reads them.
  ///
  /// - Throws: ``ImageError`` naming `path`.
  public static func readLuma(_ path: String) throws(ImageError) -> Image<UInt8> {
    let bytes = try contents(path)
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try JPEG.decodeLuma(bytes, path: path) }
    let rgba = try decodeRGBA8(bytes, name: path)
    let luma: [UInt8] = rgba.pixels.map { c -> UInt8 in
      let y: Float = 0.299 * Float(c.x) + 0.587 * Float(c.y) + 0.114 * Float(c.z)
      return UInt8(y.rounded())
    }
    return Image(width: rgba.width, height: rgba.height, pixels: luma)
  }

  /// Reads a PNG file as 16-bit RGBA (8-bit files widened exactly): depth images in
  /// millimetres, say.
  ///
  /// - Throws: ``ImageError`` naming `path`; a JPEG or another format is refused.
  public static func readRGBA16(_ path: String) throws(ImageError) -> RGBA16Image {
    let bytes = try contents(path)
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw .unknownFormat(path: path) }
    return try PNG.decodeRGBA16(bytes, path: path)
  }

  private static func contents(_ path: String) throws(ImageError) -> [UInt8] {
    do { return try FileIO.read(path) } catch {
      switch error {
      case .missing: throw .unreadable(path: path, reason: "no such file")
      case .unreadable(_, let reason), .unwritable(_, let reason):
        throw .unreadable(path: path, reason: reason)
      }
    }
  }

  /// Writes an 8-bit RGBA image as a PNG file, atomically (temporary file, then rename).
  ///
  /// - Parameters:
  ///   - image: The pixels, sRGB-encoded.
  ///   - path: The file to write (replaced whole, or left as it was on error).
  ///   - channels: The file's layout (see ``PNG/Channels``); by default RGB when every pixel is
  ///     opaque (a quarter less to compress, the same pixels read back), else RGBA.
  ///   - compression: zlib level 0–9; 6 is libpng's default.
  public static func writePNG(
    _ image: RGBA8Image, to path: String, channels: PNG.Channels? = nil, compression: Int = 6
  ) throws(ImageError) {
    let layout = channels ?? (isOpaque(image) ? .rgb : .rgba)
    try write(PNG.encodeSamples(image, layout, false, compression), to: path)
  }

  /// Whether every pixel's alpha is 255: the alphas of 4,096 pixels at a time ANDed together
  /// (a loop the compiler vectorises), stopping at the first block with a translucent pixel.
  static func isOpaque(_ image: RGBA8Image) -> Bool {
    image.pixels.withUnsafeBytes { raw in
      let words = raw.bindMemory(to: UInt32.self)
      var start = 0
      while start < words.count {
        let end = Swift.min(start + 4096, words.count)
        var all: UInt32 = 0xFFFF_FFFF
        for i in start..<end { all &= words[i] }
        // Alpha is each pixel's fourth byte: the word's high byte on a little-endian machine.
        guard UInt32(littleEndian: all) >> 24 == 0xFF else { return false }
        start = end
      }
      return true
    }
  }

  /// Writes a depth image as a 16-bit greyscale PNG of millimetres, atomically: the layout
  /// ARKit recorders use (Stray Scanner, ARKitScenes). Distances round to the nearest
  /// millimetre; 0 means no depth (nothing drawn, or not finite); 65,535 means that far or
  /// farther (65.535 m).
  ///
  /// - Parameters:
  ///   - depth: Distances in metres.
  ///   - path: The file to write (replaced whole, or left as it was on error).
  ///   - compression: The compression level 0–9.
  public static func writeDepthPNG(_ depth: DepthImage, to path: String, compression: Int = 2)
    throws(ImageError)
  {
    let millimetres = depth.pixels.map { d -> SIMD4<UInt16> in
      guard d.isFinite, d > 0 else { return .zero }
      let mm = UInt16(Swift.min(65_535, Swift.max(1, (Double(d) * 1000).rounded())))
      return SIMD4(mm, mm, mm, 65_535)
    }
    let image = RGBA16Image(width: depth.width, height: depth.height, pixels: millimetres)
    try write(PNG.encodeSamples(image, .grey, false, compression), to: path)
  }

  /// An encoded file written atomically from the encoder's buffer.
  private static func write(_ encoded: EncodedBytes, to path: String) throws(ImageError) {
    do {
      try encoded.withUnsafeBytes { (bytes) throws(FileIOError) in try FileIO.writeAtomically(bytes, to: path)
      }
    } catch {
      throw .unwritable(path: path, reason: error.description)
    }
  }
}
