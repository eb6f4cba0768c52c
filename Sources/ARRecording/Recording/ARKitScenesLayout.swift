import ARMath
import Foundation

/// An ARKitScenes video folder (github.com/apple/ARKitScenes, `raw` and `3dod` data).
/// docs/recordings.md maps every column.
///
/// - `lowres_wide.traj` (or the folder's one `*.traj`): `ts rx ry rz tx ty tz` a line, seconds
///   since boot, then the camera's extrinsics: an axis-angle rotation (radians, Rodrigues) and a
///   translation (metres) taking world points into the camera, in OpenCV's camera convention.
///   They are inverted to `worldFromCamera` and the camera turned to ARKit's convention.
/// - `lowres_wide/<video>_<ts>.png`: the frames, named by their time (three decimals);
///   `lowres_wide_intrinsics/<video>_<ts>.pincam`: `w h fx fy cx cy` for that frame;
///   `lowres_depth/<video>_<ts>.png`: 16-bit depth in millimetres; `confidence/…png`: 0, 1, 2.
enum ARKitScenesLayout {
  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let folder = isDirectory.boolValue ? path : RecordingFormat.parent(path)
    let trajectory: String
    if isDirectory.boolValue {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
        $0.hasSuffix(".traj")
      }
      guard let name = names.contains("lowres_wide.traj") ? "lowres_wide.traj" : names.sorted().first else {
        throw .unknownFormat(path: path, reason: "no .traj file")
      }
      trajectory = RecordingFormat.join(path, name)
    } else {
      trajectory = path
    }
    let names = ["ts", "rx", "ry", "rz", "tx", "ty", "tz"]
    let openCVFromARKit: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: .arkit, to: .opencv)
    let poses = try LineRecordSource(path: trajectory) { bytes, line throws(RecordingError) in
      guard
        let v = try DelimitedLine.numbers(bytes, path: trajectory, line: line, columns: 7...7, names: names)
      else {
        return []
      }
      let axisAngle = SIMD3(v[1], v[2], v[3])
      let angle = axisAngle.length
      let rotation =
        angle > 0
        ? Quaternion<Double>(angle: .radians(angle), axis: axisAngle / angle) : Quaternion<Double>.identity
      let cameraFromWorld = RigidTransform(rotation: rotation, translation: [v[4], v[5], v[6]])
      return [.pose(CameraPoseSample(time: v[0], worldFromCamera: cameraFromWorld.inverse * openCVFromARKit))]
    }
    let frames = ArrayRecordSource(try frameRecords(folder))
    return (RecordingHeader(source: "arkitscenes", timeBase: .uptime), [poses, frames])
  }

  /// The frames, from the images' and intrinsics' names, in time order.
  private static func frameRecords(_ folder: String) throws(RecordingError) -> [(
    RecordingRecord, path: String
  )] {
    func stems(_ sub: String, _ ext: String) -> [String: String] {
      let dir = RecordingFormat.join(folder, sub)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
      var result: [String: String] = [:]
      for name in names where name.hasSuffix(ext) {
        result[String(name.dropLast(ext.count))] = dir + "/" + name
      }
      return result
    }
    let images = stems("lowres_wide", ".png"), intrinsics = stems("lowres_wide_intrinsics", ".pincam")
    let depths = stems("lowres_depth", ".png"), confidences = stems("confidence", ".png")
    var timed: [(time: Double, stem: String)] = []
    for stem in Set(images.keys).union(intrinsics.keys) {
      let path = images[stem] ?? intrinsics[stem]!
      guard let underscore = stem.lastIndex(of: "_"),
        let time = Double(stem[stem.index(after: underscore)...]),
        time.isFinite
      else {
        throw .badRecord(
          path: path, line: 0, field: "file name",
          reason: "expected <video>_<seconds>, the frame's time in its name")
      }
      timed.append((time, stem))
    }
    timed.sort { $0.time < $1.time || $0.time == $1.time && $0.stem < $1.stem }
    var records: [(RecordingRecord, path: String)] = []
    for (index, (time, stem)) in timed.enumerated() {
      var k: Pinhole<Double>?, size: SIMD2<Int>?
      if let pincam = intrinsics[stem] {
        (k, size) = try readPincam(pincam)
      }
      let frame = CameraFrameSample(
        time: time, index: index, intrinsics: k, imageSize: size,
        image: images[stem] != nil ? .file("lowres_wide/\(stem).png") : nil,
        depthPath: depths[stem] != nil ? "lowres_depth/\(stem).png" : nil,
        confidencePath: confidences[stem] != nil ? "confidence/\(stem).png" : nil)
      records.append((.frame(frame), images[stem] ?? intrinsics[stem]!))
    }
    return records
  }

  /// `w h fx fy cx cy`.
  private static func readPincam(_ path: String) throws(RecordingError) -> (Pinhole<Double>, SIMD2<Int>) {
    let lines = try LineRecordSource.allLines(path)
    for (i, bytes) in lines.enumerated() {
      guard
        let v = try DelimitedLine.numbers(
          bytes, path: path, line: i + 1, columns: 6...6, names: ["w", "h", "fx", "fy", "cx", "cy"])
      else { continue }
      guard v[0] >= 1, v[1] >= 1, v[0] == v[0].rounded(), v[1] == v[1].rounded(), v[0] < 1e6, v[1] < 1e6
      else {
        throw .badRecord(
          path: path, line: i + 1, field: "w, h", reason: "expected a positive whole image size")
      }
      guard v[2] > 0, v[3] > 0 else {
        throw .badRecord(path: path, line: i + 1, field: "fx, fy", reason: "focal lengths must be positive")
      }
      return (Pinhole(fx: v[2], fy: v[3], cx: v[4], cy: v[5]), SIMD2(Int(v[0]), Int(v[1])))
    }
    throw .badRecord(path: path, line: lines.count, field: "line", reason: "no `w h fx fy cx cy` line")
  }
}
