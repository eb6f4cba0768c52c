import ARRecording
import ARTestSupport
import Foundation
import Testing

/// A single file of poses is read as the layout its content shows, whatever its name, and a
/// file that fits no layout (or two) is refused with the reason: never read as a layout it is
/// not, with exit 0.
@Suite("Pose files told by their content")
struct PoseFileContentTests {
  static let arcore = Fixtures.path("recordings/arcore_data_logger/ARCore_sensor_pose.txt")

  /// `text` written as `name` in a new folder.
  static func file(_ text: String, _ name: String = "poses.txt") throws -> (TemporaryFolder, String) {
    let folder = try TemporaryFolder()
    return (folder, try folder.write(text, to: name))
  }

  /// The ARCore fixture's lines (without its header) turned into other layouts' mistakes.
  static func arcoreRows() throws -> [[Substring]] {
    try String(contentsOfFile: arcore, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { $0.split(separator: " ") }
  }

  @Test(
    "an ARCore Data Logger file, under any name, reads as one; with --from tum it is an error naming line 2")
  func arcoreByContent() throws {
    let (folder, renamed) = try Self.file(try String(contentsOfFile: Self.arcore, encoding: .utf8))
    _ = folder
    let reader = try RecordingReader(path: renamed)
    #expect(reader.format == .arcoreDataLogger && reader.header.timeBase == .uptime)
    var times: [Double] = []
    try reader.forEach { times.append($0.time) }
    #expect(times.count == 3 && abs(times[0] - 15492.865785374) < 1e-9)
    #expect(throws: RecordingError.self) { try RecordingReader(path: renamed, format: .tum).forEach { _ in } }
    do {
      try RecordingReader(path: renamed, format: .tum).forEach { _ in }
    } catch {
      #expect(
        "\(error)".contains(
          "poses.txt:2: qx, qy, qz, qw: columns 5–8 (qx qy qz qw) are not a unit quaternion"))
    }
  }

  @Test("a TUM file with shuffled columns, and one stamped in nanoseconds: refused, saying why")
  func misreadingsRefused() throws {
    // t qx qy qz qw tx ty tz in seconds: neither TUM's nor ARCore's line.
    let shuffled = try Self.arcoreRows().enumerated().map { i, row in
      (["\(1_700_000_000 + Double(i) / 30)"] + row[1...7]).joined(separator: " ")
    }
    let (f1, shuffledPath) = try Self.file(shuffled.joined(separator: "\n") + "\n")
    _ = f1
    #expect {
      _ = try RecordingReader(path: shuffledPath)
    } throws: { error in
      let text = "\(error)"
      return text.contains("line 1 holds 8 numbers") && text.contains("not TUM (line 1: qx, qy, qz, qw")
        && text.contains("give --from")
    }
    // A TUM line whose time is in nanoseconds.
    let nanoseconds = try Self.arcoreRows().map { row in
      ([row[0]] + row[5...7] + row[1...4]).joined(separator: " ")
    }
    let (f2, nanoPath) = try Self.file(nanoseconds.joined(separator: "\n") + "\n", "stamped.tum")
    _ = f2
    #expect {
      _ = try RecordingReader(path: nanoPath)
    } throws: { "\($0)".contains("TUM times are seconds; nanoseconds read as seconds?") }
    #expect {
      _ = try RecordingReader(path: nanoPath, format: .tum)
    } throws: { "\($0)".contains("stamped.tum:1: t: poses 3.333e+07 s apart") }
  }

  @Test("an ARKit Data Logger file named ARKit_pose.txt reads as one")
  func arkitLoggerUnderAnotherName() throws {
    let row = "1 0 0 0.5 0 1 0 1.5 0 0 1 -2"
    let text = "Created at 20190722_225919t1000000000 " + row + "\n2000000000 " + row + "\n"
    let (folder, path) = try Self.file(text, "ARKit_pose.txt")
    _ = folder
    let reader = try RecordingReader(path: path)
    #expect(reader.format == .arkitDataLogger)
    var count = 0
    try reader.forEach { _ in count += 1 }
    #expect(count == 2)
  }

  @Test(
    "real trajectory files are told by their content: TUM, EuRoC's CSV and KITTI",
    .enabled(if: RealData.available, "needs ../shared/data/real"),
    arguments: [
      ("trajectories/tum_fr1_xyz/freiburg1_xyz-groundtruth.txt", RecordingFormat.tum),
      ("trajectories/tum_fr2_desk/fr2_desk_ORB_kf_mono.txt", .tum),
      ("trajectories/euroc_V1_02/V102.txt", .tum),
      ("trajectories/euroc_V1_02/V102_groundtruth.csv", .euroc),
      ("trajectories/kitti_00/KITTI_00_ORB.txt", .kitti),
      ("ar_recordings/arkit_data_logger_iphoneXS_2019-07-22/ARKit_camera_pose.txt", .arkitDataLogger),
    ])
  func realFiles(_ relative: String, _ format: RecordingFormat) throws {
    #expect(try RecordingFormat(detecting: RealData.path(relative)) == format)
  }
}
