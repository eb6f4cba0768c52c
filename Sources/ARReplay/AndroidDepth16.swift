import ARFiles
import ARImage
import ARRecording

/// Android's `DEPTH16` saved as a headerless file (3D Recorder's `NNNNNNNN_depth16.bin`),
/// decoded: ``DepthEncoding/androidDepth16(width:height:)`` says how the samples are laid out.
enum AndroidDepth16 {
  /// The depth in `unitsPerMetre` units a metre (0: not measured) and its confidence as
  /// ARKit's levels (0 low, 1 medium, 2 high), as the replay's depth occlusion reads them.
  static func decode(
    path: String, width: Int, height: Int, unitsPerMetre: Double
  ) throws -> (depth: RGBA16Image, confidence: RGBA8Image) {
    let count = width * height
    let bytes = try FileIO.read(path)
    guard bytes.count == 2 * count else {
      throw RecordingError.unreadable(
        path: path, reason: "\(bytes.count) bytes, not \(width)×\(height) 16-bit samples (depth_size)")
    }
    var depth = [SIMD4<UInt16>](repeating: SIMD4(0, 0, 0, 65535), count: count)
    var levels = [SIMD4<UInt8>](repeating: SIMD4(0, 0, 0, 255), count: count)
    for i in 0..<count {
      let sample = UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8
      let millimetres = Double(sample & 0x1FFF)
      let units = (millimetres * unitsPerMetre / 1000).rounded()
      if millimetres > 0, units < 65535.5 {
        let value = UInt16(units)
        depth[i] = SIMD4(value, value, value, 65535)
      }
      let level = confidenceLevel(UInt8(sample >> 13))
      levels[i] = SIMD4(level, level, level, 255)
    }
    return (
      RGBA16Image(width: width, height: height, pixels: depth),
      RGBA8Image(width: width, height: height, pixels: levels)
    )
  }

  /// ARKit's level (0 low, 1 medium, 2 high) of `DEPTH16`'s 3-bit confidence: 0 is full
  /// confidence, 1 none, `c` otherwise `(c − 1)/7`.
  static func confidenceLevel(_ code: UInt8) -> UInt8 {
    guard code != 0 else { return 2 }
    let confidence = Double(code - 1) / 7
    return confidence < 1.0 / 3 ? 0 : confidence < 2.0 / 3 ? 1 : 2
  }
}
