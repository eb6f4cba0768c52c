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
    "an iPhone's ios_logger session in Seoul: 44 s of poses, frames, fixes, headings and the motion sensors")
  func iosLogger() throws {
    let (counts, reader) = try Self.read("ar_recordings/ios_logger_iphone_2021-07-29T12-52-25")
    #expect(reader.format == .iosLogger)
    #expect(
      counts == [
        "pose": 2617, "frame": 1309, "gps": 19, "heading": 2181, "magnetometer": 1062, "accelerometer": 4200,
        "gyroscope": 4200,
      ])
    // Head.txt repeats lines: skipped with a warning each, never silently. Gyro.txt has two
    // readings written a line late (lines 801 and 2531): put back in time order, with a note.
    #expect(reader.skipped == 3 && reader.warnings.count == 5)
    #expect(reader.warnings.filter { $0.contains("Head.txt") && $0.contains("repeated") }.count == 3)
    let reordered = reader.warnings.filter { $0.contains("Gyro.txt") && $0.contains("put in time order") }
    #expect(reordered.count == 2 && reordered[0].contains("Gyro.txt:801:"))
  }

  @Test("Stray Scanner-style odometry from a real device: a pose and a frame a second")
  func strayScanner() throws {
    let (counts, reader) = try Self.read("ar_recordings/stray_scanner_style_odometry_husseinhhameed")
    #expect(reader.format == .strayScanner)
    #expect(counts == ["pose": 32, "frame": 32])
    #expect(reader.skipped == 0)
  }

  @Test("an iPhone XS's ARKit Data Logger session: 2,762 poses at 60 Hz over 46 s, as the folder or the file")
  func arkitDataLogger() throws {
    let folder = "ar_recordings/arkit_data_logger_iphoneXS_2019-07-22"
    let (counts, reader) = try Self.read(folder)
    #expect(reader.format == .arkitDataLogger && reader.header.timeBase == .uptime)
    #expect(counts == ["pose": 2762] && reader.skipped == 0)
    // The second session's file, renamed by the app's author, is told by its name.
    let (letters, named) = try Self.read(folder + "/ARKit_camera_pose_LARR_letters.txt")
    #expect(named.format == .arkitDataLogger && letters == ["pose": 1653])
    // The first pose, as its line gives it (nanoseconds of uptime; R row by row, then t).
    let first = try RecordingReader(path: RealData.path(folder))
    guard case .pose(let pose) = try first.next() else {
      Issue.record("no pose first")
      return
    }
    #expect(abs(pose.time - 105230.574092166) < 1e-9)
    #expect(pose.worldFromCamera.translation == [-0.042176, 0.137348, 0.463405])
    // Matrix3 is subscripted [column, row]: r12 is [1, 0], r21 is [0, 1].
    let r = pose.worldFromCamera.rotation.matrix
    #expect(
      abs(r[1, 0] - 0.989337) < 1e-5 && abs(r[0, 1] + 0.973180) < 1e-5 && abs(r[2, 2] - 0.962525) < 1e-5)
  }
}
