import ARFilm
import ARImageIO
import ARMarkers
import ARMesh
import ARPlaces
import ARPose
import ARRecording
import ARReplay
import ARScene
import ARSnapshotTesting
import Foundation

/// Every reader of a file a user can give arscene, as a fuzz target: the bytes are written
/// where the reader expects its file (beside what it refers to) and read as the command line
/// reads them. An error is a pass; a crash, a hang or a memory error is what fuzzing looks for.
public enum FuzzReader: String, CaseIterable, Sendable {
  case obj, mtl, scene, points, recording, iosLogger = "ios_logger", strayScanner = "stray_scanner"
  case arkitScenes = "arkitscenes", arkitDataLogger = "arkit_data_logger", arcoreDataLogger =
    "arcore_data_logger"
  /// A TUM RGB-D sequence's `rgb.txt`, beside a `depth.txt` and a `groundtruth.txt`.
  case tumRGBD = "tum_rgbd"
  /// A `transforms.json` (nerfstudio, instant-ngp, Polycam).
  case transformsJSON = "transforms_json"
  /// An EuRoC ASL folder's `cam0/sensor.yaml`, beside a `cam0/data.csv`.
  case eurocFolder = "euroc_folder"
  /// A Record3D `.r3d` capture (a zip), its frames' depth and confidence decoded too.
  case record3D = "record3d"
  /// A Stray Scanner folder's `imu.csv` (its unit told by its readings), beside an
  /// `odometry.csv`.
  case strayIMU = "stray_imu"
  /// A 3D Recorder folder's `poses.csv`, beside a real frame and its `DEPTH16` depth, which
  /// are decoded too.
  case threeDRecorder = "3d_recorder"
  /// The CoreLocation Motion Data Logger's `gps.txt`, beside an ARKit pose file with its
  /// `Created at` line.
  case coreLocationGPS = "corelocation_gps"
  /// An EXR image (Record3D's EXR depth), one channel decoded through OpenEXR's C core.
  case exr
  case ktx2
  /// A WebP image (glTF's EXT_texture_webp, photos from the web), decoded through libwebp.
  case webp
  /// Record3D's EXR export: its `metadata.json`, beside real `rgb/` and `depth/` files.
  case record3DFolder = "record3d_exr"
  /// An LZFSE stream (Record3D's depth), decoded.
  case lzfse
  /// A single file of poses whose layout is told by its content (``RecordingFormat/init(detecting:)``).
  case poseFile = "pose_file"
  case tum, euroc, kitti, geojson, stops, gpx, cube, preset, png, jpeg, pointCloud = "point_cloud", game
  case clicks, gltf, usdz, usda, dictionary
  /// A batch of overlays: `render --manifest`'s JSON Lines.
  case renderManifest = "render_manifest"
  /// Not readers but promises: references stay in their folder; outputs leave non-regular files
  /// and inputs alone (``FuzzInvariants``).
  case reference, output

  /// The file the bytes become, in the reader's work folder.
  var fileName: String {
    switch self {
    case .obj: "model.obj"
    case .mtl: "materials.mtl"
    case .scene: "scene.json"
    case .points: "points.json"
    case .recording: "recording.jsonl"
    case .iosLogger: "ios/ARposes.txt"
    case .strayScanner: "stray/odometry.csv"
    case .arkitScenes: "arkitscenes/lowres_wide.traj"
    case .arkitDataLogger: "logger/ARKit_camera_pose.txt"
    case .arcoreDataLogger: "arcore/ARCore_sensor_pose.txt"
    case .poseFile: "poses.txt"
    case .tumRGBD: "tumrgbd/rgb.txt"
    case .transformsJSON: "transforms.json"
    case .eurocFolder: "euroc/mav0/cam0/sensor.yaml"
    case .record3D: "scan.r3d"
    case .threeDRecorder: "recorder3d/poses.csv"
    case .strayIMU: "strayimu/imu.csv"
    case .lzfse: "depth.lzfse"
    case .exr: "depth.exr"
    case .ktx2: "texture.ktx2"
    case .webp: "texture.webp"
    case .coreLocationGPS: "corelocation/gps.txt"
    case .record3DFolder: "record3dexr/metadata.json"
    case .tum: "trajectory.tum"
    case .euroc: "trajectory.csv"
    case .kitti: "trajectory.kitti"
    case .geojson: "places.geojson"
    case .stops: "stops.json"
    case .gpx: "track.gpx"
    case .cube: "lut.cube"
    case .preset: "preset.json"
    case .png: "image.png"
    case .jpeg: "image.jpg"
    case .pointCloud: "cloud.xyz"
    case .game: "game.json"
    case .clicks: "clicks.csv"
    case .gltf: "model.gltf"
    case .usdz: "model.usdz"
    case .usda: "model.usda"
    case .reference: "references.txt"
    case .output: "outputs.txt"
    case .dictionary: "dictionary.yml"
    case .renderManifest: "batch.jsonl"
    }
  }

  /// Reads `bytes` as this reader's file in `folder` (made by ``FuzzFolder``); errors are
  /// swallowed, everything else (a trap, a hang) is the finding.
  public func feed(_ bytes: [UInt8], in folder: FuzzFolder) {
    let path = folder.path + "/" + fileName
    // An input that cannot be written would leave every later execution reading an old file:
    // stop the run rather than count executions that tested nothing.
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      fatalError("arscene-fuzz: cannot write the input to \(path) (is the disk full?)")
    }
    switch self {
    case .obj:
      if let asset = try? OBJAsset.load(path: path, lenient: true) {
        _ = asset.mesh.welded()
        _ = asset.mesh.objText()
      }
    case .mtl: _ = try? MTLReader.read(path: path, lenient: true)
    case .scene: _ = try? Scene.load(path: path)
    case .points: _ = try? PointSet.load(path: path)
    case .recording: Self.readRecording(path)
    case .iosLogger: Self.readRecording(folder.path + "/ios")
    case .strayScanner: Self.readRecording(folder.path + "/stray")
    case .arkitScenes: Self.readRecording(folder.path + "/arkitscenes")
    case .arkitDataLogger: Self.readRecording(folder.path + "/logger")
    case .arcoreDataLogger: Self.readRecording(folder.path + "/arcore")
    case .poseFile: Self.readRecording(path)
    case .tumRGBD: Self.readRecording(folder.path + "/tumrgbd")
    case .transformsJSON: Self.readRecording(path)
    case .eurocFolder: Self.readRecording(folder.path + "/euroc")
    case .record3D: Self.readRecord3D(path)
    case .threeDRecorder: Self.readWithDepth(folder.path + "/recorder3d")
    case .strayIMU: Self.readRecording(folder.path + "/strayimu")
    case .lzfse: _ = try? LZFSE.decode(bytes, limit: 1 << 22)
    case .exr: _ = try? EXR.decodeChannel(bytes)
    case .ktx2: _ = try? KTX2.decodeRGBA8(bytes, path: "texture.ktx2")
    case .webp: _ = try? ImageFile.decodeRGBA8(bytes, name: "texture.webp")
    case .coreLocationGPS: Self.readRecording(folder.path + "/corelocation")
    case .record3DFolder: Self.readWithDepth(folder.path + "/record3dexr")
    case .tum: _ = try? TrajectoryFormat.tum.read(path: path)
    case .euroc: _ = try? TrajectoryFormat.euroc.read(path: path)
    case .kitti: _ = try? TrajectoryFormat.kitti.read(path: path)
    case .geojson, .stops: _ = try? PlaceSet.read(path: path)
    case .gpx: _ = try? Track.readGPX(path: path)
    case .cube: _ = try? CubeLUT(path: path)
    case .preset: _ = try? FilmLook(path: path)
    case .png:
      _ = try? PNG.decodeRGBA8(bytes)
      _ = try? PNG.decodeRGBA16(bytes)
      // The Swift-only decoder snapshot tests read their references with.
      _ = try? PortablePNG.decode(bytes, path: path)
    case .jpeg:
      _ = try? JPEG.decodeRGBA8(bytes)
      _ = try? JPEG.decodeLuma(bytes)
    case .pointCloud: _ = try? PointCloud.read(path: path)
    case .game: _ = try? VisitGame.read(path: path, stops: ["zavist-01", "zavist-02"])
    case .usdz, .usda:
      if let asset = try? ModelAsset.load(path: path) { _ = ModelStatistics(asset) }
    case .reference: FuzzInvariants.checkReferences(bytes, in: folder.path)
    case .output: FuzzInvariants.checkOutputs(bytes, in: folder.path)
    case .gltf:
      // GLB and .gltf alike (told by content), through the model loader every command uses.
      if let asset = try? ModelAsset.load(path: path, lenient: true) { _ = ModelStatistics(asset) }
    case .clicks:
      _ = try? ControlClicks.read(path: path)
      _ = try? ControlClicks.read(path: path, known: ["cp-gate-post", "cp-gate-beam"])
    case .renderManifest: _ = try? RenderManifest.read(path: path)
    case .dictionary:
      if let dictionary = try? MarkerDictionary(openCVFile: path), dictionary.codes.count > 0 {
        _ = try? dictionary.image(id: dictionary.codes.count - 1, pixels: 64)
      }
    }
  }

  /// A Record3D capture's records, and each frame's depth and confidence decoded from it.
  static func readRecord3D(_ path: String) {
    ZipArchive.inflate = { try RawDeflate.inflate($0, size: $1) }
    readRecording(path)
    guard let reader = try? RecordingReader(path: path), let archive = try? ZipArchive(path: path) else {
      return
    }
    try? reader.forEach { record in
      guard case .frame(let frame) = record, case .lzfseFloat32(let w, let h) = frame.depthEncoding else {
        return
      }
      for (entry, bytes) in [(frame.depthPath, 4), (frame.confidencePath, 1)] {
        guard let entry, let data = try? archive.contents(entry, limit: 1 << 24) else { continue }
        _ = try? LZFSE.decode(data, limit: bytes * w * h)
      }
    }
  }

  /// A recording's records, and each frame's depth decoded as `render --recording` decodes it.
  static func readWithDepth(_ path: String) {
    readRecording(path)
    guard let reader = try? RecordingReader(path: path) else { return }
    let images = RecordingFrameImages(baseFolder: reader.baseFolder)
    try? reader.forEach { record in
      if case .frame(let frame) = record { _ = try? images.depth(of: frame) }
    }
  }

  /// Every record of a recording, strictly and leniently.
  static func readRecording(_ path: String) {
    for lenient in [false, true] {
      guard let reader = try? RecordingReader(path: path, lenient: lenient) else { continue }
      try? reader.forEach { _ in }
    }
  }
}
