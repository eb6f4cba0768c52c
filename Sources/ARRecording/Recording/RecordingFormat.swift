import ARFiles
import Foundation

/// The recording layouts ARScene reads, each documented in docs/recordings.md with its field
/// mapping and conventions.
public enum RecordingFormat: String, Sendable, CaseIterable {
  /// ARScene's own JSON Lines (`.jsonl`): what every other layout converts to.
  case arscene
  /// ios_logger's folder: `ARposes.txt`, `Frames.txt`, `GPS.txt`, `Head.txt`, `Magnet.txt`,
  /// `Frames.m4v`.
  case iosLogger = "ios_logger"
  /// A Stray Scanner folder: `odometry.csv`, `camera_matrix.csv`, `depth/`, `confidence/`,
  /// `rgb.mp4`.
  case strayScanner = "stray_scanner"
  /// An ARKitScenes video folder: `lowres_wide.traj`, `lowres_wide_intrinsics/*.pincam`,
  /// `lowres_wide/`, `lowres_depth/`, `confidence/`.
  case arkitScenes = "arkitscenes"
  /// The ARKit Data Logger's `ARKit_camera_pose.txt` (a folder holding it, or the file): poses.
  case arkitDataLogger = "arkit_data_logger"
  /// The ARCore Data Logger's `ARCore_sensor_pose.txt` (a folder holding it, or the file): poses.
  case arcoreDataLogger = "arcore_data_logger"
  /// A TUM RGB-D sequence's folder: `rgb.txt`, `depth.txt`, `groundtruth.txt`, `rgb/`, `depth/`.
  case tumRGBD = "tum_rgbd"
  /// A `transforms.json` (nerfstudio, instant-ngp, Polycam), or a folder holding one.
  case transformsJSON = "transforms_json"
  /// An EuRoC MAV sequence in the ASL layout: `mav0/cam0/`, `mav0/state_groundtruth_estimate0/`.
  case eurocFolder = "euroc_folder"
  /// A Record3D `.r3d` capture: a zip archive of `metadata` and `rgbd/` frames, depth and
  /// confidence.
  case record3D = "record3d"
  /// Record3D's EXR + JPG export: a folder of `metadata.json`, `rgb/` and `depth/` (EXR).
  case record3DFolder = "record3d_exr"
  /// A 3D Recorder folder (Huawei AR Engine): `poses.csv`, `NNNNNNNN_image.jpg`,
  /// `NNNNNNNN_depth16.bin`.
  case threeDRecorder = "3d_recorder"
  /// Trajectory files (poses only).
  case tum, euroc, kitti

  /// The layout's name as its makers write it, for help and messages (`Stray Scanner`).
  public var title: String {
    switch self {
    case .arscene: "ARScene JSON Lines"
    case .iosLogger: "ios_logger"
    case .strayScanner: "Stray Scanner"
    case .arkitScenes: "ARKitScenes"
    case .arkitDataLogger: "ARKit Data Logger"
    case .arcoreDataLogger: "ARCore Data Logger"
    case .tumRGBD: "TUM RGB-D"
    case .transformsJSON: "transforms.json"
    case .eurocFolder: "EuRoC MAV (ASL folder)"
    case .record3D: "Record3D (.r3d)"
    case .record3DFolder: "Record3D (EXR export)"
    case .threeDRecorder: "3D Recorder"
    case .tum: "TUM"
    case .euroc: "EuRoC"
    case .kitti: "KITTI"
    }
  }

  /// Every layout's `--from` name, `a, b, … or z`: the one list the command line's help and
  /// messages print, so that a new case cannot be left out of them.
  public static var fromNames: String {
    let names = allCases.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// Every layout's title, comma-separated, in declaration order.
  public static var titles: String { allCases.map(\.title).joined(separator: ", ") }

  /// Whether the layout is a trajectory file of poses only (TUM, EuRoC, KITTI).
  public var isTrajectory: Bool { self == .tum || self == .euroc || self == .kitti }

  /// The layout of the file or folder at `path`: a folder by the files it holds, ARScene's JSON
  /// Lines and ARKitScenes' `.traj` by their names (whose readers refuse any other content), and
  /// any other file by its content alone (docs/recordings.md), never by its extension.
  public init(detecting path: String) throws(RecordingError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .unreadable(path: path, reason: "no such file or folder")
    }
    if isDirectory.boolValue {
      let names = Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
      if names.contains("ARposes.txt") || names.contains("Frames.txt") && names.contains("GPS.txt") {
        self = .iosLogger
      } else if names.contains("odometry.csv") {
        self = .strayScanner
      } else if names.contains(where: { $0.hasSuffix(".traj") }) {
        self = .arkitScenes
      } else if names.contains(ARKitDataLoggerLayout.poseFile) {
        self = .arkitDataLogger
      } else if names.contains(ARCoreDataLoggerLayout.poseFile) {
        self = .arcoreDataLogger
      } else if names.contains("rgb.txt")
        && (names.contains("depth.txt") || names.contains("groundtruth.txt"))
      {
        self = .tumRGBD
      } else if names.contains(TransformsJSONLayout.fileName) {
        self = .transformsJSON
      } else if names.contains("mav0") || names.contains("cam0") && names.contains("imu0") {
        self = .eurocFolder
      } else if Record3DFolderLayout.isExport(names) {
        self = .record3DFolder
      } else if names.contains(ThreeDRecorderLayout.poseFile),
        ThreeDRecorderLayout.isPoseFile(
          (try? FileIO.readPrefix(Self.join(path, ThreeDRecorderLayout.poseFile), count: 200)) ?? [])
      {
        self = .threeDRecorder
      } else {
        throw .unknownFormat(
          path: path,
          reason:
            "not a recording folder this build knows (ios_logger: ARposes.txt; Stray Scanner: odometry.csv; ARKitScenes: *.traj; ARKit Data Logger: ARKit_camera_pose.txt; ARCore Data Logger: ARCore_sensor_pose.txt; TUM RGB-D: rgb.txt; transforms.json; EuRoC: mav0/; 3D Recorder: poses.csv; Record3D's EXR export: metadata.json, rgb/); give --from"
        )
      }
      return
    }
    let name = path.lowercased()
    let prefix = (try? FileIO.readPrefix(path, count: 65_536)) ?? []
    if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") {
      self = .arscene
    } else if name.hasSuffix(".traj") {
      self = .arkitScenes
    } else if Record3DLayout.isArchive(prefix) {
      self = .record3D
    } else if TransformsJSONLayout.isTransforms(prefix) {
      self = .transformsJSON
    } else if ThreeDRecorderLayout.isPoseFile(prefix) {
      self = .threeDRecorder
    } else {
      self = try PoseFileContent.layout(of: path)
    }
  }

  /// `folder/name`, kept as the user wrote `folder` (relative stays relative, for messages).
  package static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The folder of a file path (`.` for a bare name).
  package static func parent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
