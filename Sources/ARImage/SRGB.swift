import RealModule

/// The sRGB transfer function (IEC 61966-2-1), between encoded 8-bit samples and linear light.
///
/// Shading and blending happen in linear light; files and screens hold sRGB. Alpha is never
/// transformed.
public enum SRGB {
  /// Linear value in [0, 1] of an encoded value in [0, 1].
  @inlinable
  public static func decode(_ encoded: Float) -> Float {
    encoded <= 0.04045 ? encoded / 12.92 : Float.pow((encoded + 0.055) / 1.055, 2.4)
  }

  /// Encoded value in [0, 1] of a linear value (clamped to [0, 1] first; NaN encodes as 0).
  @inlinable
  public static func encode(_ linear: Float) -> Float {
    let x = linear > 0 ? Swift.min(linear, 1) : 0
    return x <= 0.0031308 ? x * 12.92 : 1.055 * Float.pow(x, 1 / 2.4) - 0.055
  }

  /// The linear value of each 8-bit code, so decoding an image is a table look-up.
  public static let decodeTable: [Float] = (0..<256).map { decode(Float($0) / 255) }

  /// The 8-bit code nearest to the sRGB encoding of `linear`.
  @inlinable
  public static func encode8(_ linear: Float) -> UInt8 {
    UInt8((encode(linear) * 255).rounded())
  }
}

extension Image where Pixel == SIMD4<UInt8> {
  /// This sRGB image in linear light (alpha scaled to [0, 1], not transformed).
  public var linear: LinearImage {
    let table = SRGB.decodeTable
    return map { p in SIMD4(table[Int(p.x)], table[Int(p.y)], table[Int(p.z)], Float(p.w) / 255) }
  }
}

extension Image where Pixel == SIMD4<Float> {
  /// This linear image encoded as 8-bit sRGB (colour clamped to [0, 1]; alpha rounded; NaN as 0).
  public var sRGB8: RGBA8Image {
    map { p in
      SIMD4(
        SRGB.encode8(p.x), SRGB.encode8(p.y), SRGB.encode8(p.z),
        UInt8(((p.w > 0 ? Swift.min(p.w, 1) : 0) * 255).rounded()))
    }
  }
}
