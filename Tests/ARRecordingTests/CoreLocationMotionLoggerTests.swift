import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// The CoreLocation Motion Data Logger's `gps.txt` and `heading.txt` beside its ARKit poses,
/// written here as the app writes them (`%.0f %.6f …`, a `# Created at` line first).
@Suite("CoreLocation Motion Data Logger files beside ARKit poses")
struct CoreLocationMotionLoggerTests {
  /// 2019-06-11 17:53:34 KST is 08:53:34 UTC.
  static let createdUnix = 1_560_243_214.0
  static let header = "# Created at 2019-06-11 17:53:34 in KST in Seoul South Korea \n"
  static let pose = "0.999 0 0 1.0 0 1 0 2.0 0 0 1 3.0"  // a unit-ish rotation row by row

  static func folder(gps: [String], heading: Bool = true, header: String = header) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let poses = [2_713_981_549_542, 2_713_998_216_209].map { "\($0) 1 0 0 0.5 0 1 0 1.5 0 0 1 -2.0 " }
    _ = try folder.write(header + poses.joined(separator: "\n") + "\n", to: "ARKit_camera_pose.txt")
    _ = try folder.write(Self.header + gps.joined(separator: "\n") + "\n", to: "gps.txt")
    if heading { _ = try folder.write(Self.header + "2713981549542 270.000183 \n", to: "heading.txt") }
    return folder
  }

  static func fixes(_ folder: TemporaryFolder) throws -> ([GPSFix], RecordingReader) {
    let reader = try RecordingReader(path: folder.path)
    var fixes: [GPSFix] = []
    try reader.forEach { if case .gps(let fix) = $0 { fixes.append(fix) } }
    return (fixes, reader)
  }

  @Test("fixes are put on the poses' clock by the Created at line; the 2019 column order (floor, vAcc)")
  func olderColumnOrder() throws {
    // Unix 6.5 s after the line: 6.5 s after the first pose on the uptime clock.
    let line = String(
      format: "%.0f 37.577586 127.000719 65.000000 49.917660 nan 10.000000 ", (Self.createdUnix + 6.5) * 1e9)
    let (fixes, reader) = try Self.fixes(Self.folder(gps: [line]))
    #expect(reader.format == .arkitDataLogger && reader.header.description?.contains("gps.txt") == true)
    let fix = try #require(fixes.first)
    #expect(abs(fix.time - (2713.981549542 + 6.5)) < 1e-6)
    #expect(fix.latitude == 37.577586 && fix.horizontalAccuracy == 65 && fix.altitudeMSL == 49.917660)
    #expect(fix.verticalAccuracy == 10)
    #expect(reader.warnings.contains { $0.contains("heading.txt: not read") })
  }

  @Test("the October 2019 order (vAcc, floor) is told by the floor's nan and 0")
  func newerColumnOrder() throws {
    let lines = [
      String(format: "%.0f 37.5 127.0 5.000000 40.0 3.000000 nan ", (Self.createdUnix + 1) * 1e9),
      String(format: "%.0f 37.5 127.0 5.000000 40.0 4.000000 0.000000 ", (Self.createdUnix + 2) * 1e9),
    ]
    let (fixes, _) = try Self.fixes(Self.folder(gps: lines, heading: false))
    #expect(fixes.map(\.verticalAccuracy) == [3, 4])
  }

  @Test("no zone to join the clocks, or columns that cannot be told apart: refused, naming why")
  func refusals() throws {
    let line = String(
      format: "%.0f 37.5 127.0 5.000000 40.0 3.000000 7.000000 ", (Self.createdUnix + 1) * 1e9)
    #expect(throws: RecordingError.self) { try Self.fixes(Self.folder(gps: [line])) }
    let ok = String(format: "%.0f 37.5 127.0 5.000000 40.0 nan 3.000000 ", (Self.createdUnix + 1) * 1e9)
    do {
      _ = try Self.fixes(Self.folder(gps: [ok], header: "Created at 20190722_225919t"))
      Issue.record("read without a zone")
    } catch { #expect("\(error)".contains("Created at")) }
  }
}
