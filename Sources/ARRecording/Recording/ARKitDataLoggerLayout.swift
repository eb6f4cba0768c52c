import ARMath
import Foundation

/// The ARKit Data Logger's camera poses (github.com/PyojinKim/ARKit-Data-Logger):
/// `ARKit_camera_pose.txt`, in a folder or given itself (told by its content, whatever its name:
/// app versions and users name it `ARKit_pose.txt` and more).
/// docs/recordings.md maps every column.
///
/// A header, then one line an `ARFrame`, space-separated:
/// `t r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz`, where `t` is `ARFrame.timestamp` in
/// nanoseconds (the device's uptime) and `[R | t]` is `ARFrame.camera.transform` row by row:
/// `worldFromCamera` in ARKit's world and camera frames, metres, as ARScene keeps poses. The app
/// has written its header two ways: `# Created at … ` on a line of its own, and (its current
/// source) `Created at 20190722_225919t` with no line end, so the first pose follows on the same
/// line; both are read. The logger's point cloud (`ARKit_point_cloud.txt`) is not a record.
enum ARKitDataLoggerLayout {
  /// The poses' file name the app writes.
  static let poseFile = "ARKit_camera_pose.txt"

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let file = isDirectory.boolValue ? RecordingFormat.join(path, poseFile) : path
    try PoseFileContent.verify(file, as: .arkitDataLogger)
    let names = ["t", "r11", "r12", "r13", "tx", "r21", "r22", "r23", "ty", "r31", "r32", "r33", "tz"]
    let poses = try LineRecordSource(path: file) { bytes, line throws(RecordingError) in
      let data = line == 1 ? Self.droppingHeader(bytes) : bytes
      guard let v = try DelimitedLine.numbers(data, path: file, line: line, columns: 13...13, names: names)
      else {
        return []
      }
      return [try Self.pose(v, path: file, line: line)]
    }
    var sources: [any RecordSource] = [poses]
    var description: String?
    if isDirectory.boolValue {
      (sources, description) = try withLocationLogger(folder: path, poseFile: file, poses: poses, log: log)
    }
    return (
      RecordingHeader(source: "arkit_data_logger", timeBase: .uptime, description: description), sources
    )
  }

  /// The poses and what the CoreLocation Motion Data Logger wrote beside them: its `gps.txt` on
  /// the poses' clock; its `heading.txt`, `CMDeviceMotion.heading`, is the yaw of the device's
  /// attitude with no accuracy, not a compass bearing of the camera, and is left out with a note.
  static func withLocationLogger(
    folder: String, poseFile: String, poses: any RecordSource, log: ReadLog
  ) throws(RecordingError) -> ([any RecordSource], String?) {
    let files = FileManager.default
    let heading = RecordingFormat.join(folder, "heading.txt")
    if files.fileExists(atPath: heading) {
      log.note(
        "\(heading): not read: CMDeviceMotion.heading is the device attitude's yaw, with no accuracy, not the camera's compass bearing"
      )
    }
    let gps = RecordingFormat.join(folder, CoreLocationMotionLoggerGPS.fileName)
    guard files.fileExists(atPath: gps) else { return ([poses], nil) }
    let offset = try CoreLocationMotionLoggerGPS.unixMinusUptime(poseFile: poseFile)
    let fixes = try CoreLocationMotionLoggerGPS.source(gps, unixMinusUptime: offset, log: log)
    return (
      [poses, fixes],
      "gps.txt's Unix times put on the poses' uptime clock by the pose file's Created at line (to about 1 s)"
    )
  }

  /// The first line without the app's header: nothing left of `# Created at …`, and what follows
  /// `Created at <yyyymmdd_hhmmss>t` (the first pose, when the header had no line end).
  static func droppingHeader(_ bytes: [UInt8]) -> [UInt8] {
    let prefix = Array("Created at ".utf8)
    guard bytes.starts(with: prefix) else { return bytes }
    // The date's token ends at its `t`; with no `t`, the whole line is the header.
    guard let end = bytes[prefix.count...].firstIndex(of: UInt8(ascii: "t")) else { return [] }
    return Array(bytes[(end + 1)...])
  }

  /// The pose of one line's numbers: seconds from nanoseconds, the rotation checked.
  static func pose(_ v: [Double], path: String, line: Int) throws(RecordingError) -> RecordingRecord {
    // After the time, the line is KITTI's: [R | t] row by row.
    do {
      let pose = try TrajectoryFormat.rowMajorPose(v, from: 1)
      return .pose(CameraPoseSample(time: v[0] * 1e-9, worldFromCamera: pose))
    } catch { throw .badRecord(path: path, line: line, field: "r11…r33", reason: error.reason) }
  }
}
