import ARImage
import CImageCodecs

/// JPEG reading through libjpeg-turbo (baseline and progressive, grey, YCbCr and CMYK).
public enum JPEG {
  /// Decodes a JPEG to 8-bit RGBA (alpha 255).
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - path: Named in errors only.
  /// - Throws: ``ImageError/invalid(path:format:reason:)``: damaged or truncated data is an error,
  ///   never a partly grey image; so is a header claiming more pixels than the file can hold
  ///   (Huffman coding spends at least a bit on each 8 × 8 block), checked before the image is
  ///   allocated, and an arithmetic-coded JPEG above 64 megapixels (which has no such floor);
  ///   so is an image above `ImageLimits.maximumPixels`.
  public static func decodeRGBA8(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> RGBA8Image {
    try decode(bytes, path: path, channels: 4, as: SIMD4<UInt8>.self)
  }

  /// Decodes a JPEG to its luma alone (8-bit grey: the file's Y channel, no chroma upsampled or
  /// colours converted, about half the work of ``decodeRGBA8(_:path:)``).
  ///
  /// - Throws: as ``decodeRGBA8(_:path:)``.
  public static func decodeLuma(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> Image<UInt8> {
    try decode(bytes, path: path, channels: 1, as: UInt8.self)
  }

  /// The JPEG decoded to `channels` 8-bit samples a pixel (4: RGBA, 1: grey), as `Pixel`s,
  /// straight into the image's array (no buffer of the codec's copied into it: a 12 MP photo's
  /// 48 MB were allocated, faulted in and copied twice).
  private static func decode<Pixel>(
    _ bytes: [UInt8], path: String?, channels: UInt32, as _: Pixel.Type
  ) throws(ImageError) -> Image<Pixel> {
    precondition(MemoryLayout<Pixel>.stride == Int(channels), "a pixel is `channels` bytes")
    var message = [CChar](repeating: 0, count: 256)
    arscene_image_set_max_pixels(UInt64(ImageLimits.maximumPixels))
    var (width, height): (UInt32, UInt32) = (0, 0)
    let sized = bytes.withUnsafeBufferPointer { buffer in
      arscene_jpeg_size(buffer.baseAddress, buffer.count, &width, &height, &message, message.count)
    }
    guard sized == 0 else { throw .invalid(path: path, format: "JPEG", reason: codecMessage(message)) }
    let count = Int(width) * Int(height)
    var status: Int32 = 0
    let pixels = [Pixel](unsafeUninitializedCapacity: count) { buffer, made in
      status = bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawBufferPointer(buffer).withMemoryRebound(to: UInt8.self) { out in
          arscene_jpeg_decode_into(
            source.baseAddress, source.count, channels, width, height, out.baseAddress, &message,
            message.count)
        }
      }
      // Every pixel written, or none kept: a failed decode's array is thrown away unread.
      made = status == 0 ? count : 0
    }
    guard status == 0 else { throw .invalid(path: path, format: "JPEG", reason: codecMessage(message)) }
    return Image(width: Int(width), height: Int(height), pixels: pixels)
  }
}
