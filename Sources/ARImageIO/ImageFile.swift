import ARFiles
import ARImage

/// Image files by path, format chosen by content (PNG or JPEG signature), not by extension.
public enum ImageFile {
  /// Reads a PNG or JPEG file as 8-bit RGBA.
  ///
  /// - Throws: ``ImageError`` naming `path`.
  public static func readRGBA8(_ path: String) throws(ImageError) -> RGBA8Image {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch {
      switch error {
      case .missing: throw .unreadable(path: path, reason: "no such file")
      case .unreadable(_, let reason), .unwritable(_, let reason):
        throw .unreadable(path: path, reason: reason)
      }
    }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNG.decodeRGBA8(bytes, path: path) }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try JPEG.decodeRGBA8(bytes, path: path) }
    throw .unknownFormat(path: path)
  }

  /// Writes an 8-bit RGBA image as a PNG file, atomically (temporary file, then rename).
  ///
  /// - Parameters:
  ///   - image: The pixels, sRGB-encoded.
  ///   - path: The file to write (replaced whole, or left as it was on error).
  ///   - channels: The file's layout (default RGBA; see ``PNG/Channels``).
  ///   - compression: zlib level 0–9; 6 is libpng's default.
  public static func writePNG(
    _ image: RGBA8Image, to path: String, channels: PNG.Channels = .rgba, compression: Int = 6
  ) throws(ImageError) {
    let bytes = try PNG.encode(image, channels: channels, compression: compression)
    do { try FileIO.writeAtomically(bytes, to: path) } catch {
      throw .unwritable(path: path, reason: error.description)
    }
  }
}
