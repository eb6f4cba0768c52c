import ARMath
import Foundation

/// Record3D's "EXR + JPG" export: a folder of `metadata.json` (the `.r3d` archive's `metadata`,
/// read as ``Record3DLayout`` reads it), `rgb/N.jpg` (or `.png`) frame N's colour image and
/// `depth/N.exr` its depth (one channel, metres, ``DepthEncoding/exr``). docs/recordings.md maps
/// every member. The export has no confidence images, so none is read.
enum Record3DFolderLayout {
  /// The metadata's file name in the folder.
  static let metadataFile = "metadata.json"

  /// Whether a folder's names are an export's: the metadata beside an `rgb` or `depth` folder.
  static func isExport(_ names: Set<String>) -> Bool {
    names.contains(metadataFile) && (names.contains("rgb") || names.contains("depth"))
  }

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    let metadataPath = RecordingFormat.join(path, metadataFile)
    let bytes: Data
    do { bytes = try Data(contentsOf: URL(fileURLWithPath: metadataPath)) } catch {
      throw .unreadable(path: metadataPath, reason: "no \(metadataFile) (Record3D's EXR export has one)")
    }
    guard let root = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] else {
      throw .badRecord(path: metadataPath, line: 0, field: "", reason: "not a JSON object")
    }
    let camera = try Record3DLayout.camera(root, path: metadataPath)
    let poses = try Record3DLayout.poses(root, path: metadataPath)
    let times = try Record3DLayout.times(root, count: poses.count, path: metadataPath)
    let files = FileManager.default
    var records: [(RecordingRecord, path: String)] = []
    for (i, (pose, time)) in zip(poses, times).enumerated() {
      let image = ["rgb/\(i).jpg", "rgb/\(i).png"].first {
        files.fileExists(atPath: RecordingFormat.join(path, $0))
      }
      let depth = "depth/\(i).exr"
      var frame = CameraFrameSample(
        time: time, index: i, intrinsics: camera.pinhole, imageSize: camera.size,
        image: image.map { .file($0) },
        depthPath: files.fileExists(atPath: RecordingFormat.join(path, depth)) ? depth : nil)
      frame.depthEncoding = .exr
      records.append((.pose(CameraPoseSample(time: time, worldFromCamera: pose)), metadataPath))
      if image != nil || frame.depthPath != nil { records.append((.frame(frame), metadataPath)) }
    }
    let header = RecordingHeader(
      source: RecordingFormat.record3DFolder.rawValue,
      timeBase: root["frameTimestamps"] != nil ? .uptime : .session,
      description: "Record3D EXR export: \(poses.count) frames, \(camera.size.x)×\(camera.size.y)")
    return (header, [ArrayRecordSource(records)])
  }
}
