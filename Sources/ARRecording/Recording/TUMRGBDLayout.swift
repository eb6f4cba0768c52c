import ARMath
import Foundation

/// A TUM RGB-D benchmark sequence's folder (cvg.cit.tum.de/data/datasets/rgbd-dataset, "File
/// Formats"), as the dataset's archives unpack. docs/recordings.md maps every file.
///
/// - `rgb.txt`: `timestamp filename` a colour frame (640×480 PNG), `#` header lines first; the
///   header's `# file: 'rgbd_dataset_freiburgN_….bag'` names the Kinect, whose intrinsics and
///   lens are the dataset's published ones (`RecordingCamera.published`; without such a header
///   or folder name, `--camera tum-freiburgN` says which). A frame's depth is the `depth.txt`
///   image nearest in time within 20 ms (the dataset's `associate.py`), 16-bit, 5000 a metre.
/// - `groundtruth.txt`: the motion-capture track, `timestamp tx ty tz qx qy qz qw` (TUM's
///   trajectory format): the colour camera's optical centre in the capture's world, camera x
///   right, y down, z forward (OpenCV's convention), turned to ARKit's on reading. It is the
///   recording's `pose` stream: the capture has no odometry of its own (compare an estimate with
///   it through `arscene traj`).
enum TUMRGBDLayout {
  /// How far apart a colour frame and the depth image taken with it may be, seconds.
  static let depthPairing = 0.02

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    let rgb = RecordingFormat.join(path, "rgb.txt")
    let camera = try Self.camera(rgbList: rgb, folder: path)
    let depths = try timedFiles(RecordingFormat.join(path, "depth.txt"))
    var index = 0
    let frames = try LineRecordSource(path: rgb) { bytes, line throws(RecordingError) in
      guard let (time, file) = try timedFile(bytes, path: rgb, line: line) else { return [] }
      var frame = CameraFrameSample(
        time: time, index: index, intrinsics: camera?.intrinsics, imageSize: camera?.imageSize,
        image: .file(file), depthPath: nearest(time, in: depths), lens: camera?.lens ?? .none)
      frame.depthPerMetre = 5000
      index += 1
      return [.frame(frame)]
    }
    var sources: [any RecordSource] = [frames]
    let truth = RecordingFormat.join(path, "groundtruth.txt")
    if FileManager.default.fileExists(atPath: truth) { sources.append(try groundTruth(truth)) }
    let header = RecordingHeader(
      source: RecordingFormat.tumRGBD.rawValue, timeBase: .unix,
      description: camera == nil
        ? "TUM RGB-D: no camera named in rgb.txt's header or the folder's name; frames without intrinsics"
        : "TUM RGB-D: poses are the motion-capture ground truth")
    return (header, sources)
  }

  /// The Kinect the sequence names (``RecordingCamera/published``): rgb.txt's
  /// `# file: '…freiburgN…'` header, else the folder's own name (`rgbd_dataset_freiburg1_rpy`);
  /// nil when neither names one.
  static func camera(rgbList: String, folder: String) throws(RecordingError) -> RecordingCamera? {
    let head = try LineRecordSource.allLines(rgbList).prefix { $0.first == UInt8(ascii: "#") }
    let texts =
      head.map { String(decoding: $0, as: UTF8.self) } + [URL(fileURLWithPath: folder).lastPathComponent]
    for text in texts {
      if let kinect = ["freiburg1", "freiburg2", "freiburg3"].first(where: { text.lowercased().contains($0) })
      {
        return RecordingCamera.published["tum-" + kinect]
      }
    }
    return nil
  }

  /// The ground truth as camera poses in ARKit's convention.
  static func groundTruth(_ path: String) throws(RecordingError) -> LineRecordSource {
    try PoseFileContent.verify(path, as: .tum)
    let arkitInOpenCV: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: .arkit, to: .opencv)
    return try LineRecordSource.poses(path, .tum) { $0 * arkitInOpenCV }
  }

  /// A `timestamp filename` line (`#` lines and blank ones give nil).
  static func timedFile(_ bytes: [UInt8], path: String, line: Int) throws(RecordingError) -> (Double, String)?
  {
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard parts.count == 2, let time = Double(parts[0]), time.isFinite else {
      throw .badRecord(path: path, line: line, field: "line", reason: "expected 'timestamp filename'")
    }
    return (time, String(parts[1]))
  }

  /// Every `timestamp filename` of a list, in time order; none when the file is missing.
  static func timedFiles(_ path: String) throws(RecordingError) -> [(time: Double, file: String)] {
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    var files: [(time: Double, file: String)] = []
    for (i, bytes) in try LineRecordSource.allLines(path).enumerated() {
      if let entry = try timedFile(bytes, path: path, line: i + 1) { files.append(entry) }
    }
    return files.sorted { $0.time < $1.time }
  }

  /// The file of `files` nearest `time`, within ``depthPairing``.
  static func nearest(_ time: Double, in files: [(time: Double, file: String)]) -> String? {
    var low = 0, high = files.count
    while low < high {
      let middle = (low + high) / 2
      if files[middle].time < time { low = middle + 1 } else { high = middle }
    }
    let near = [low - 1, low].filter { files.indices.contains($0) }
      .min { abs(files[$0].time - time) < abs(files[$1].time - time) }
    guard let near, abs(files[near].time - time) <= depthPairing else { return nil }
    return files[near].file
  }
}
