import ARMath
import Foundation

/// A Stray Scanner folder (github.com/strayrobots/scanner, docs/format.md). docs/recordings.md
/// maps every column.
///
/// - `odometry.csv`: a header line, then `timestamp, frame, x, y, z, qx, qy, qz, qw` a frame:
///   seconds since boot (`ARFrame.timestamp`), the frame's number, and the camera's pose. The app
///   writes `ARCamera.transform` turned by 180° about the camera's x axis (`q_WA · q_AC`), that is
///   the camera in OpenCV's convention (y down, looking down +Z); it is turned back to ARKit's.
///   Today's app adds the frame's own intrinsics, `fx, fy, cx, cy` (pixels of the video's
///   frames), and `distortion_center_x, distortion_center_y`, which it often leaves empty (a
///   line ending `, , `): 9, 13 or 15 columns. A frame's own intrinsics win over the file's.
/// - `camera_matrix.csv`: the 3×3 intrinsic matrix `K` (rows, commas) of the last frame, for
///   images of the video's size.
/// - `rgb.mp4`: the frames, frame `n` of the video is frame `n`.
/// - `depth/NNNNNN.png`: 16-bit depth in millimetres (256×192); `confidence/NNNNNN.png`: 0, 1, 2.
/// - `imu.csv`: accelerometer and gyroscope readings (``StrayScannerIMU``), in the app's
///   versions since August 2021.
enum StrayScannerLayout {
  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    let odometry = RecordingFormat.join(path, "odometry.csv")
    let intrinsics = try cameraMatrix(RecordingFormat.join(path, "camera_matrix.csv"))
    let videoSize = VideoFileInfo.size(path: RecordingFormat.join(path, "rgb.mp4"))
    let depthFolder = RecordingFormat.join(path, "depth")
    let confidenceFolder = RecordingFormat.join(path, "confidence")
    let names = [
      "timestamp", "frame", "x", "y", "z", "qx", "qy", "qz", "qw", "fx", "fy", "cx", "cy",
      "distortion_center_x",
      "distortion_center_y",
    ]
    let openCVFromARKit: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: .arkit, to: .opencv)
    let source = try LineRecordSource(path: odometry) { bytes, line throws(RecordingError) in
      guard
        let v = try DelimitedLine.numbers(
          bytes, path: odometry, line: line, columns: 9...15, names: names, allowHeader: true)
      else { return [] }
      guard [9, 13, 15].contains(v.count) else {
        throw .badRecord(
          path: odometry, line: line, field: "line",
          reason:
            "expected 9, 13 or 15 columns (\(names.joined(separator: ", ")); the last two may be empty), got \(v.count)"
        )
      }
      guard v[1] >= 0, v[1] == v[1].rounded(), v[1] < 1e12 else {
        throw .badRecord(path: odometry, line: line, field: "frame", reason: "expected a frame number ≥ 0")
      }
      guard let q = Quaternion(vector: SIMD4(v[5], v[6], v[7], v[8])).normalizedOrNil() else {
        throw .badRecord(
          path: odometry, line: line, field: "qx, qy, qz, qw", reason: "a quaternion of zero length")
      }
      let worldFromOpenCVCamera = RigidTransform(rotation: q, translation: [v[2], v[3], v[4]])
      let index = Int(v[1])
      let name = String(index).leftPadded(to: 6) + ".png"
      let depth = "depth/" + name, confidence = "confidence/" + name
      return [
        .pose(CameraPoseSample(time: v[0], worldFromCamera: worldFromOpenCVCamera * openCVFromARKit)),
        .frame(
          CameraFrameSample(
            time: v[0], index: index,
            intrinsics: try Self.frameIntrinsics(v, path: odometry, line: line) ?? intrinsics,
            imageSize: videoSize,
            image: .video(path: "rgb.mp4", frame: index),
            depthPath: FileManager.default.fileExists(atPath: depthFolder + "/" + name) ? depth : nil,
            confidencePath: FileManager.default.fileExists(atPath: confidenceFolder + "/" + name)
              ? confidence : nil)),
      ]
    }
    var sources: [any RecordSource] = [source]
    var description: String?
    let imu = RecordingFormat.join(path, "imu.csv")
    if FileManager.default.fileExists(atPath: imu) {
      let (readings, unit) = try StrayScannerIMU.source(imu)
      sources.append(ReorderedRecordSource(readings, log: log))
      description = unit.map {
        "imu.csv accelerations in \($0 == .g ? "g" : "m/s²"), told by their magnitude"
      }
    }
    return (RecordingHeader(source: "stray_scanner", timeBase: .uptime, description: description), sources)
  }

  /// A line's own intrinsics (columns 10–13), checked; nil on a 9-column line.
  static func frameIntrinsics(_ v: [Double], path: String, line: Int) throws(RecordingError) -> Pinhole<
    Double
  >? {
    guard v.count >= 13 else { return nil }
    do { return try Pinhole(validatingFx: v[9], fy: v[10], cx: v[11], cy: v[12]) } catch {
      throw .badRecord(path: path, line: line, field: "fx, fy, cx, cy", reason: error.description)
    }
  }

  /// `fx, 0, cx` / `0, fy, cy` / `0, 0, 1`, or nil when the file is missing.
  static func cameraMatrix(_ path: String) throws(RecordingError) -> Pinhole<Double>? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let lines = try LineRecordSource.allLines(path)
    var rows: [[Double]] = []
    for (i, bytes) in lines.enumerated() {
      guard
        let row = try DelimitedLine.numbers(
          bytes, path: path, line: i + 1, columns: 3...3, names: ["column 1", "column 2", "column 3"])
      else { continue }
      rows.append(row)
    }
    guard rows.count == 3 else {
      // Named at the line after the last row read: where the missing row should be.
      throw .badRecord(
        path: path, line: min(lines.count + 1, max(1, rows.count + 1)), field: "K",
        reason:
          "expected 3 rows of 3 numbers (fx 0 cx / 0 fy cy / 0 0 1), got \(rows.count)\(lines.isEmpty ? " (the file is empty)" : "")"
      )
    }
    guard rows[0][0] > 0, rows[1][1] > 0 else {
      throw .badRecord(path: path, line: 1, field: "fx, fy", reason: "focal lengths must be positive")
    }
    return Pinhole(fx: rows[0][0], fy: rows[1][1], cx: rows[0][2], cy: rows[1][2])
  }
}

extension String {
  /// The string with leading zeros to `width` characters.
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
