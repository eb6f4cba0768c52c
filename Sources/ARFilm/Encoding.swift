import ARImage

/// The sRGB encoding and decoding of values clamped to [0, 1].
enum Encoding {
  static func encode(_ v: Double) -> Double { Double(SRGB.encode(Float(min(max(v, 0), 1)))) }
  static func decode(_ v: Double) -> Double { Double(SRGB.decode(Float(min(max(v, 0), 1)))) }

  /// Linear values of 4,097 encoded values evenly spaced over [0, 1].
  static let decodeTable: [Float] = (0...4096).map { Float(decode(Double($0) / 4096)) }

  /// The linear value of an encoded one (clamped to [0, 1]), interpolated in ``decodeTable``.
  @inline(__always)
  static func decodeFast(_ v: Float) -> Float {
    let s = min(max(v, 0), 1) * 4096
    let i = min(Int(s), 4095), f = s - Float(i)
    return decodeTable.withUnsafeBufferPointer { t in t[i] + (t[i + 1] - t[i]) * f }
  }
}
