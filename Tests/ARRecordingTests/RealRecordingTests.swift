import ARMath
import ARRecording
import ARTestSupport
import Foundation
import Testing

/// Recordings real phones made, read as they are (../shared/data/real/ar_recordings).
@Suite("Real recordings", .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
struct RealRecordingTests {
  /// Every record of the recording at `relative`, by stream, and the reader.
  static func read(_ relative: String) throws -> ([String: Int], RecordingReader) {
    let reader = try RecordingReader(path: RealData.path(relative))
    var counts: [String: Int] = [:]
    try reader.forEach { record in counts[record.stream.rawValue, default: 0] += 1 }
    return (counts, reader)
  }

  @Test(
    "an iPhone's ios_logger session in Seoul: 44 s of poses, frames, fixes, headings and the magnetometer")
  func iosLogger() throws {
    let (counts, reader) = try Self.read("ar_recordings/ios_logger_iphone_2021-07-29T12-52-25")
    #expect(reader.format == .iosLogger)
    #expect(counts == ["pose": 2617, "frame": 1309, "gps": 19, "heading": 2181, "magnetometer": 1062])
    // Head.txt repeats two lines: skipped with a warning each, never silently.
    #expect(reader.skipped == 3 && reader.warnings.count == 3)
    #expect(reader.warnings.allSatisfy { $0.contains("Head.txt") && $0.contains("repeated") })
  }

  @Test("Stray Scanner-style odometry from a real device: a pose and a frame a second")
  func strayScanner() throws {
    let (counts, reader) = try Self.read("ar_recordings/stray_scanner_style_odometry_husseinhhameed")
    #expect(reader.format == .strayScanner)
    #expect(counts == ["pose": 32, "frame": 32])
    #expect(reader.skipped == 0)
  }
}
