import ARImage
import CWebP

/// WebP reading through libwebp: lossy (VP8) and lossless (VP8L) still images, with or without
/// an alpha channel (glTF's `EXT_texture_webp` textures, photos as the web serves them).
public enum WebP {
  /// Whether `bytes` begin as a WebP file does: a RIFF container of form type `WEBP`.
  public static func isWebP(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
  }

  /// Decodes a still WebP image to 8-bit RGBA (alpha 255 where the file has none; colours not
  /// premultiplied).
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - path: Named in errors only.
  /// - Throws: ``ImageError/invalid(path:format:reason:)`` for damaged or truncated data (never a
  ///   partly decoded image), an animated WebP (its frames are not one texture), and an image
  ///   above `ImageLimits.maximumPixels`, checked from the header before anything is allocated.
  public static func decodeRGBA8(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> RGBA8Image {
    func invalid(_ reason: String) -> ImageError { .invalid(path: path, format: "WebP", reason: reason) }
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else {
      throw invalid("libwebp's version does not match its header")
    }
    let header = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
    guard header == VP8_STATUS_OK else { throw invalid(reason(header)) }
    let (width, height) = (Int(config.input.width), Int(config.input.height))
    guard config.input.has_animation == 0 else {
      throw invalid("an animated WebP (\(width)x\(height)); ARScene reads still images")
    }
    guard width > 0, height > 0 else { throw invalid("no pixels (\(width)x\(height))") }
    guard width * height <= ImageLimits.maximumPixels else {
      throw invalid(
        "\(width)x\(height) is more pixels than the image budget of \(ImageLimits.maximumPixels) (ARSCENE_MAX_IMAGE_PIXELS raises it)"
      )
    }
    let count = width * height
    var status = VP8_STATUS_OK
    // Decoded straight into the image's array: libwebp writes rows of `4 × width` bytes there.
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: count) { buffer, made in
      UnsafeMutableRawBufferPointer(buffer).withMemoryRebound(to: UInt8.self) { out in
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = out.baseAddress
        config.output.u.RGBA.stride = Int32(4 * width)
        config.output.u.RGBA.size = out.count
        status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
      }
      // Every pixel written, or none kept: a failed decode's array is thrown away unread.
      made = status == VP8_STATUS_OK ? count : 0
    }
    WebPFreeDecBuffer(&config.output)
    guard status == VP8_STATUS_OK else { throw invalid(reason(status)) }
    return Image(width: width, height: height, pixels: pixels)
  }

  /// libwebp's status as words.
  private static func reason(_ status: VP8StatusCode) -> String {
    switch status {
    case VP8_STATUS_NOT_ENOUGH_DATA: "truncated (the data ends before the image does)"
    case VP8_STATUS_BITSTREAM_ERROR: "damaged data (libwebp: bitstream error)"
    case VP8_STATUS_UNSUPPORTED_FEATURE: "a feature libwebp does not decode"
    case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
    case VP8_STATUS_INVALID_PARAM: "not a WebP image (libwebp: invalid parameter)"
    default: "libwebp status \(status.rawValue)"
    }
  }
}
