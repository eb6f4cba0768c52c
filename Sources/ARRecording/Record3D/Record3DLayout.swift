import ARMath
import Foundation

/// A Record3D capture (record3d.app: iPhone and iPad LiDAR and TrueDepth video) as its `.r3d`
/// export: a zip archive. docs/recordings.md maps every member.
///
/// - `metadata`: JSON. `w`, `h` the colour frames' size and `K` their intrinsics, column-major
///   (`[fx, 0, 0, 0, fy, 0, cx, cy, 1]`); `dw`, `dh` the depth images' size; `fps`; `poses`, one
///   `[qx, qy, qz, qw, tx, ty, tz]` a frame: the camera's pose in ARKit's world and camera
///   convention (camera to world, y up, looking down −Z); `frameTimestamps` (seconds since the
///   phone started) in versions that write them, else frames are `1 / fps` apart from 0.
/// - `rgbd/N.jpg` frame N's colour image; `rgbd/N.depth` its depth (LZFSE-compressed 32-bit
///   floats, metres, `dw` × `dh`); `rgbd/N.conf` the depth's confidence (LZFSE-compressed bytes,
///   0 low, 1 medium, 2 high).
///
/// Frames name their entries in the archive (``CameraFrameSample/archive``); nothing is
/// extracted. A `K` that is not a pinhole matrix, a pose whose quaternion is not unit within
/// 1e-3, or poses and timestamps of different counts are refused, naming the member.
enum Record3DLayout {
  /// Whether a file's first bytes are a zip archive's (a `.r3d` capture's, if it holds `metadata`).
  static func isArchive(_ prefix: [UInt8]) -> Bool { prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    let archive = try ZipArchive(path: path)
    guard archive.entries["metadata"] != nil else {
      throw .unknownFormat(path: path, reason: "a zip archive without Record3D's 'metadata' entry")
    }
    let metadataPath = path + ": metadata"
    guard
      let object = try? JSONSerialization.jsonObject(
        with: Data(archive.contents("metadata", limit: 256 << 20))),
      let root = object as? [String: Any]
    else { throw .badRecord(path: metadataPath, line: 0, field: "", reason: "not a JSON object") }
    let camera = try Self.camera(root, path: metadataPath)
    let poses = try Self.poses(root, path: metadataPath)
    let times = try Self.times(root, count: poses.count, path: metadataPath)
    let name = URL(fileURLWithPath: path).lastPathComponent
    var records: [(RecordingRecord, path: String)] = []
    for (i, (pose, time)) in zip(poses, times).enumerated() {
      func entry(_ suffix: String) -> String? {
        archive.entries["rgbd/\(i).\(suffix)"] != nil ? "rgbd/\(i).\(suffix)" : nil
      }
      var frame = CameraFrameSample(
        time: time, index: i, intrinsics: camera.pinhole, imageSize: camera.size,
        image: entry("jpg").map { .file($0) }, depthPath: entry("depth"), confidencePath: entry("conf"))
      frame.archive = name
      frame.depthEncoding = .lzfseFloat32(width: camera.depthSize.x, height: camera.depthSize.y)
      records.append((.pose(CameraPoseSample(time: time, worldFromCamera: pose)), metadataPath))
      records.append((.frame(frame), metadataPath))
    }
    let header = RecordingHeader(
      source: RecordingFormat.record3D.rawValue,
      timeBase: root["frameTimestamps"] != nil ? .uptime : .session,
      description:
        "Record3D: \(poses.count) frames, \(camera.size.x)×\(camera.size.y), depth \(camera.depthSize.x)×\(camera.depthSize.y)"
    )
    return (header, [ArrayRecordSource(records)])
  }

  /// The colour camera (`K`, `w`, `h`) and the depth images' size (`dw`, `dh`).
  static func camera(_ root: [String: Any], path: String) throws(RecordingError) -> (
    pinhole: Pinhole<Double>, size: SIMD2<Int>, depthSize: SIMD2<Int>
  ) {
    func whole(_ key: String) throws(RecordingError) -> Int {
      guard let n = (root[key] as? NSNumber)?.doubleValue, n >= 1, n <= 16384, n == n.rounded() else {
        throw .badRecord(path: path, line: 0, field: "/" + key, reason: "expected a whole number of pixels")
      }
      return Int(n)
    }
    guard let k = (root["K"] as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), k.count == 9,
      k.allSatisfy(\.isFinite), k[2] == 0, k[5] == 0, k[8] == 1, k[1] == 0
    else {
      throw .badRecord(
        path: path, line: 0, field: "/K",
        reason: "expected 9 numbers, a pinhole matrix column by column [fx, 0, 0, s, fy, 0, cx, cy, 1]")
    }
    guard k[3] == 0 else {
      throw .badRecord(
        path: path, line: 0, field: "/K", reason: "a skewed camera (K[3] = \(k[3])) is not read")
    }
    let pinhole: Pinhole<Double>
    do { pinhole = try Pinhole(validatingFx: k[0], fy: k[4], cx: k[6], cy: k[7]) } catch {
      throw .badRecord(path: path, line: 0, field: "/K", reason: error.description)
    }
    return (pinhole, SIMD2(try whole("w"), try whole("h")), SIMD2(try whole("dw"), try whole("dh")))
  }

  /// `poses`: camera to world, ARKit's convention.
  static func poses(_ root: [String: Any], path: String) throws(RecordingError) -> [RigidTransform<Double>] {
    guard let rows = root["poses"] as? [Any], !rows.isEmpty else {
      throw .badRecord(path: path, line: 0, field: "/poses", reason: "expected an array of poses")
    }
    var poses: [RigidTransform<Double>] = []
    for (i, row) in rows.enumerated() {
      guard let v = (row as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), v.count == 7,
        v.allSatisfy(\.isFinite)
      else {
        throw .badRecord(
          path: path, line: 0, field: "/poses/\(i)", reason: "expected 7 numbers [qx, qy, qz, qw, tx, ty, tz]"
        )
      }
      let q = SIMD4(v[0], v[1], v[2], v[3])
      guard PoseFileContent.isUnitQuaternion(q), let unit = Quaternion(vector: q).normalizedOrNil() else {
        throw .badRecord(
          path: path, line: 0, field: "/poses/\(i)",
          reason: "[qx, qy, qz, qw] has norm \(q.length), not 1 within 1e-3")
      }
      poses.append(RigidTransform(rotation: unit, translation: SIMD3(v[4], v[5], v[6])))
    }
    return poses
  }

  /// `frameTimestamps` when given (one a pose, increasing), else `i / fps`.
  static func times(_ root: [String: Any], count: Int, path: String) throws(RecordingError) -> [Double] {
    if let stamps = root["frameTimestamps"] as? [Any] {
      let times = stamps.compactMap { ($0 as? NSNumber)?.doubleValue }
      guard times.count == stamps.count, times.count == count, times.allSatisfy(\.isFinite) else {
        throw .badRecord(
          path: path, line: 0, field: "/frameTimestamps",
          reason: "expected \(count) numbers, one a pose, got \(stamps.count)")
      }
      return times
    }
    guard let fps = (root["fps"] as? NSNumber)?.doubleValue, fps > 0, fps <= 1000 else {
      throw .badRecord(
        path: path, line: 0, field: "/fps", reason: "expected frames a second (no frameTimestamps)")
    }
    return (0..<count).map { Double($0) / fps }
  }
}
