import ARMath
import Foundation

/// The ARCore Data Logger's poses (github.com/PyojinKim/ARCore-Data-Logger):
/// `ARCore_sensor_pose.txt`, in a folder or given itself (told by its content, whatever its
/// name). docs/recordings.md maps every column.
///
/// A `# Created at …` line, then one line an ARCore frame, space-separated:
/// `t_ns qx qy qz qw tx ty tz`, where `t_ns` is `Frame.getTimestamp()` in nanoseconds (the
/// device's uptime) and the rest `Frame.getAndroidSensorPose()`: the pose of Android's sensor
/// frame (x right, y up, z out of the screen, the device upright) in ARCore's world (y up,
/// gravity-aligned, metres). ARScene keeps camera poses: the back camera is that frame turned
/// −90° about its z axis (the camera's x along the device's −y), as on phones whose camera
/// sensor is mounted at 90°, nearly all of them; the header says so.
enum ARCoreDataLoggerLayout {
  /// The poses' file name the app writes.
  static let poseFile = "ARCore_sensor_pose.txt"

  /// The camera frame (ARKit convention) in the Android sensor frame.
  static let sensorFromCamera = RigidTransform<Double>(
    rotation: Quaternion(angle: .degrees(-90), axis: [0, 0, 1]), translation: .zero)

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let file = isDirectory.boolValue ? RecordingFormat.join(path, poseFile) : path
    try PoseFileContent.verify(file, as: .arcoreDataLogger)
    let names = ["t_ns", "qx", "qy", "qz", "qw", "tx", "ty", "tz"]
    let poses = try LineRecordSource(path: file) { bytes, line throws(RecordingError) in
      guard let v = try DelimitedLine.numbers(bytes, path: file, line: line, columns: 8...8, names: names)
      else { return [] }
      let q = SIMD4(v[1], v[2], v[3], v[4])
      guard let unit = Quaternion(vector: q).normalizedOrNil(),
        PoseFileContent.isUnitQuaternion(q)
      else {
        throw .badRecord(
          path: file, line: line, field: "qx, qy, qz, qw",
          reason: "columns 2–5 are not a unit quaternion (norm \(q.length))")
      }
      let worldFromSensor = RigidTransform(rotation: unit, translation: [v[5], v[6], v[7]])
      return [.pose(CameraPoseSample(time: v[0] * 1e-9, worldFromCamera: worldFromSensor * sensorFromCamera))]
    }
    let header = RecordingHeader(
      source: RecordingFormat.arcoreDataLogger.rawValue, timeBase: .uptime,
      description:
        "the Android sensor frame's poses, turned into the back camera's by −90° about z (a camera sensor mounted at 90°)"
    )
    return (header, [poses])
  }
}
