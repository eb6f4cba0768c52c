import ARImage
import CImageCodecs

/// PNG reading and writing through libpng.
///
/// Reads every PNG colour type (grey, grey+alpha, RGB, RGBA, palette, with tRNS transparency),
/// 1 to 16 bits, interlaced or not. Writes grey, grey+alpha, RGB or RGBA at 8 or 16 bits, tagged
/// sRGB. 16-bit samples round-trip exactly.
public enum PNG {
  /// The channel layout of a PNG file.
  public enum Channels: Int, Sendable, CaseIterable {
    /// Grey; grey with alpha; RGB; RGB with alpha (the samples a pixel).
    case grey = 1, greyAlpha = 2, rgb = 3, rgba = 4
  }

  /// A PNG's samples as stored (after palette expansion): `channels` samples a pixel, 8 or 16
  /// bits each (8-bit samples widened to `UInt16` unchanged).
  public struct Samples: Sendable, Equatable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// The samples a pixel.
    public var channels: Channels
    /// Bits a sample as stored: 8 or 16.
    public var bitDepth: Int
    /// Whether the file was Adam7-interlaced.
    public var interlaced: Bool
    /// Row-major samples, top row first, `width × height × channels` of them.
    public var samples: [UInt16]
  }

  /// Decodes a PNG into its stored samples.
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - path: Named in errors only.
  /// - Throws: ``ImageError/invalid(path:format:reason:)`` with libpng's reason (bad signature,
  ///   CRC error, truncated data, …), or because the header claims more pixels than the file's
  ///   bytes can inflate to (deflate packs at most 1032:1), checked before the image is allocated.
  public static func decodeSamples(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> Samples {
    var image = try decode(bytes, asRGBA8: false, path: path)
    defer { arscene_image_free(&image) }
    let count = Int(image.width) * Int(image.height) * Int(image.channels)
    let samples: [UInt16]
    if image.bit_depth == 16 {
      samples = Array(
        UnsafeBufferPointer(start: image.pixels.assumingMemoryBound(to: UInt16.self), count: count))
    } else {
      samples = UnsafeBufferPointer(start: image.pixels.assumingMemoryBound(to: UInt8.self), count: count)
        .map(UInt16.init)
    }
    return Samples(
      width: Int(image.width), height: Int(image.height), channels: Channels(rawValue: Int(image.channels))!,
      bitDepth: Int(image.bit_depth), interlaced: image.interlaced != 0, samples: samples)
  }

  /// Decodes any PNG to 8-bit RGBA: grey is copied to R, G and B; missing alpha is opaque;
  /// 16-bit samples are rounded to 8 bits. libpng does all of it while decoding, in one pass.
  public static func decodeRGBA8(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> RGBA8Image {
    // The size from the IHDR chunk (always first) lets libpng decode straight into the array;
    // it is checked against the file's length before anything is allocated.
    var message = [CChar](repeating: 0, count: 256)
    var headerWidth: UInt32 = 0, headerHeight: UInt32 = 0
    arscene_image_set_max_pixels(UInt64(ImageLimits.maximumPixels))
    switch arscene_png_header(bytes, bytes.count, &headerWidth, &headerHeight, &message, message.count) {
    case 0: break
    case 1: throw .invalid(path: path, format: "PNG", reason: codecMessage(message))
    default:
      var image = try decode(bytes, asRGBA8: true, path: path)  // reports libpng's reason
      arscene_image_free(&image)
      throw .invalid(path: path, format: "PNG", reason: "unreadable header")
    }
    let (width, height) = (Int(headerWidth), Int(headerHeight))
    let count = width * height
    var status: Int32 = 0
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: count) { buffer, initialized in
      var w: UInt32 = 0, h: UInt32 = 0
      status = bytes.withUnsafeBufferPointer { png in
        UnsafeMutableRawBufferPointer(buffer).withMemoryRebound(to: UInt8.self) { out in
          arscene_png_decode_rgba8_into(
            png.baseAddress, png.count, out.baseAddress, out.count, &w, &h, &message, message.count)
        }
      }
      initialized = status == 0 ? count : 0
    }
    guard status == 0 else { throw .invalid(path: path, format: "PNG", reason: codecMessage(message)) }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// The C decoder's image (the caller frees it), or the error it reported.
  private static func decode(_ bytes: [UInt8], asRGBA8: Bool, path: String?) throws(ImageError)
    -> arscene_image
  {
    var image = arscene_image()
    var message = [CChar](repeating: 0, count: 256)
    arscene_image_set_max_pixels(UInt64(ImageLimits.maximumPixels))
    let status = bytes.withUnsafeBufferPointer { buffer in
      arscene_png_decode(buffer.baseAddress, buffer.count, asRGBA8 ? 1 : 0, &image, &message, message.count)
    }
    guard status == 0 else { throw .invalid(path: path, format: "PNG", reason: codecMessage(message)) }
    return image
  }

  /// Decodes any PNG to 16-bit RGBA: 8-bit samples are widened exactly (`× 257`).
  public static func decodeRGBA16(_ bytes: [UInt8], path: String? = nil) throws(ImageError) -> RGBA16Image {
    let s = try decodeSamples(bytes, path: path)
    let widen: (UInt16) -> UInt16 = s.bitDepth == 16 ? { $0 } : { $0 &* 257 }
    return rgba(s, opaque: 65535, convert: widen)
  }

  private static func rgba<T: FixedWidthInteger & Sendable>(
    _ s: Samples, opaque: T, convert: (UInt16) -> T
  ) -> Image<SIMD4<T>> {
    let n = s.channels.rawValue
    var pixels = [SIMD4<T>](repeating: .zero, count: s.width * s.height)
    s.samples.withUnsafeBufferPointer { src in
      for i in 0..<pixels.count {
        let p = src.baseAddress! + i * n
        switch s.channels {
        case .grey: let g = convert(p[0]); pixels[i] = SIMD4(g, g, g, opaque)
        case .greyAlpha: let g = convert(p[0]); pixels[i] = SIMD4(g, g, g, convert(p[1]))
        case .rgb: pixels[i] = SIMD4(convert(p[0]), convert(p[1]), convert(p[2]), opaque)
        case .rgba: pixels[i] = SIMD4(convert(p[0]), convert(p[1]), convert(p[2]), convert(p[3]))
        }
      }
    }
    return Image(width: s.width, height: s.height, pixels: pixels)
  }

  /// Encodes an 8-bit image. With `.grey` or `.greyAlpha` the red channel is the grey value.
  ///
  /// - Parameters:
  ///   - image: The pixels, sRGB-encoded.
  ///   - channels: The file's layout (default RGBA).
  ///   - interlaced: Write Adam7 interlacing.
  ///   - compression: zlib level 0–9; 6 is libpng's default.
  public static func encode(
    _ image: RGBA8Image, channels: Channels = .rgba, interlaced: Bool = false, compression: Int = 6
  ) throws(ImageError) -> [UInt8] {
    try encodeSamples(image, channels, interlaced, compression).array
  }

  /// Encodes a 16-bit image. With `.grey` or `.greyAlpha` the red channel is the grey value.
  public static func encode(
    _ image: RGBA16Image, channels: Channels = .rgba, interlaced: Bool = false, compression: Int = 6
  ) throws(ImageError) -> [UInt8] {
    try encodeSamples(image, channels, interlaced, compression).array
  }

  /// Both depths: the samples `channels` keeps, at the bit depth of the sample type, in the
  /// encoder's buffer (``ImageFile`` writes it from there).
  static func encodeSamples<T: FixedWidthInteger & Sendable>(
    _ image: Image<SIMD4<T>>, _ channels: Channels, _ interlaced: Bool, _ compression: Int
  ) throws(ImageError) -> EncodedBytes {
    guard image.width > 0, image.height > 0 else {
      throw .unwritable(path: nil, reason: "PNG size \(image.width)×\(image.height) outside 1…65536")
    }
    // 8-bit RGB is taken out of RGBA by the encoder as it filters each row, on its threads.
    let repacked = T.bitWidth == 8 && channels == .rgb && !interlaced
    let samples = repacked ? [] : pick(image.pixels, channels)
    func encode(_ raw: UnsafeRawBufferPointer, sourceChannels: Int) -> Result<EncodedBytes, ImageError> {
      Result { () throws(ImageError) in
        try encodeRaw(
          raw.baseAddress!, sourceChannels: sourceChannels, image.width, image.height, channels,
          bitDepth: T.bitWidth, interlaced, compression)
      }
    }
    let result =
      repacked
      ? image.pixels.withUnsafeBytes { encode($0, sourceChannels: 4) }
      : samples.withUnsafeBytes { encode($0, sourceChannels: channels.rawValue) }
    return try result.get()
  }

  /// The samples of `channels` from RGBA pixels, interleaved.
  private static func pick<T: FixedWidthInteger>(_ pixels: [SIMD4<T>], _ channels: Channels) -> [T] {
    if channels == .rgba {
      return pixels.withUnsafeBufferPointer { Array(UnsafeRawBufferPointer($0).bindMemory(to: T.self)) }
    }
    var out = [T]()
    out.reserveCapacity(pixels.count * channels.rawValue)
    for p in pixels {
      switch channels {
      case .grey: out.append(p.x)
      case .greyAlpha: out.append(p.x); out.append(p.w)
      case .rgb: out.append(p.x); out.append(p.y); out.append(p.z)
      case .rgba: break
      }
    }
    return out
  }

  /// `pixels` hold `sourceChannels` samples a pixel: `channels`, or 4 for 8-bit RGB out of RGBA
  /// (not interlaced).
  private static func encodeRaw(
    _ pixels: UnsafeRawPointer, sourceChannels: Int, _ width: Int, _ height: Int, _ channels: Channels,
    bitDepth: Int,
    _ interlaced: Bool, _ compression: Int
  ) throws(ImageError) -> EncodedBytes {
    guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
      throw .unwritable(path: nil, reason: "PNG size \(width)×\(height) outside 1…65536")
    }
    var out: UnsafeMutablePointer<UInt8>? = nil
    var count = 0
    var message = [CChar](repeating: 0, count: 256)
    let level = Int32(Swift.min(Swift.max(compression, 0), 9))
    // Progressive (interlaced) files through libpng; the rest filtered by us and compressed by
    // libdeflate, several times faster than zlib at the same size.
    let status =
      interlaced
      ? arscene_png_encode(
        pixels, UInt32(width), UInt32(height), UInt32(channels.rawValue), UInt32(bitDepth), level, 1, &out,
        &count,
        &message, message.count)
      : arscene_png_encode_deflate(
        pixels, UInt32(sourceChannels), UInt32(width), UInt32(height), UInt32(channels.rawValue),
        UInt32(bitDepth), level, &out,
        &count,
        &message, message.count)
    guard status == 0, let out else { throw .unwritable(path: nil, reason: codecMessage(message)) }
    return EncodedBytes(taking: out, count: count)
  }
}

/// The text of a NUL-terminated message buffer filled by the C codecs.
func codecMessage(_ buffer: [CChar]) -> String {
  String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
