import ARImage
import ARRecording

/// Record3D's depth and confidence, decoded from their archive entries: LZFSE-compressed
/// little-endian 32-bit floats (metres, NaN or ≤ 0 where nothing was measured) and bytes (0 low,
/// 1 medium, 2 high), `width` × `height` each, row by row.
enum Record3DDepth {
  /// The depth as `unitsPerMetre` units a metre in 16 bits (0: not measured; farther than
  /// 65535 units: not measured) and the confidence, as the replay's depth occlusion reads them.
  static func decode(
    archive: ZipArchive, depth: String, confidence: String?, width: Int, height: Int, unitsPerMetre: Double
  ) throws -> (depth: RGBA16Image, confidence: RGBA8Image?) {
    let count = width * height
    let place = "\(archive.path): entry '\(depth.prefix(60))'"
    let floats: [UInt8]
    do { floats = try LZFSE.decode(archive.contents(depth, limit: 64 << 20), limit: 4 * count) } catch {
      throw RecordingError.unreadable(path: place, reason: "\(error)")
    }
    guard floats.count == 4 * count else {
      throw RecordingError.unreadable(
        path: place, reason: "\(floats.count / 4) depth values, not \(width)×\(height) (depth_size)")
    }
    let metres = (0..<count).map { i in
      Float(
        bitPattern: UInt32(floats[4 * i]) | UInt32(floats[4 * i + 1]) << 8 | UInt32(floats[4 * i + 2]) << 16
          | UInt32(floats[4 * i + 3]) << 24)
    }
    let depthImage = depthUnits(metres, width: width, height: height, unitsPerMetre: unitsPerMetre)
    let levels = try confidence.map { name in
      let place = "\(archive.path): entry '\(name.prefix(60))'"
      let bytes: [UInt8]
      do { bytes = try LZFSE.decode(archive.contents(name, limit: 64 << 20), limit: count) } catch {
        throw RecordingError.unreadable(path: place, reason: "\(error)")
      }
      guard bytes.count == count else {
        throw RecordingError.unreadable(
          path: place, reason: "\(bytes.count) confidences, not \(width)×\(height)")
      }
      return RGBA8Image(width: width, height: height, pixels: bytes.map { SIMD4($0, $0, $0, 255) })
    }
    return (depthImage, levels)
  }

  /// Depths in metres as the replay's 16-bit depth: `unitsPerMetre` units a metre, 0 where not
  /// measured (NaN, infinite, ≤ 0) or beyond 65535 units.
  static func depthUnits(_ metres: [Float], width: Int, height: Int, unitsPerMetre: Double) -> RGBA16Image {
    let pixels = metres.map { metre -> SIMD4<UInt16> in
      let units = Double(metre) * unitsPerMetre
      guard units.isFinite, units >= 0.5, units < 65535.5 else { return SIMD4(0, 0, 0, 65535) }
      let value = UInt16(units.rounded())
      return SIMD4(value, value, value, 65535)
    }
    return RGBA16Image(width: width, height: height, pixels: pixels)
  }
}
