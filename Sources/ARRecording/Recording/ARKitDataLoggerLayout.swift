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
    return (RecordingHeader(source: "arkit_data_logger", timeBase: .uptime), [poses])
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
