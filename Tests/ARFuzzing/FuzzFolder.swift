import Foundation

/// A reader's work folder: what its file refers to (a model beside a scene, the rest of a
/// recording's folder) copied in once, the fuzzed file written over for each input.
public final class FuzzFolder: @unchecked Sendable {
  public let path: String

  /// A fresh folder under the system's temporary one, laid out for `reader`.
  public init(for reader: FuzzReader) throws {
    path =
      NSTemporaryDirectory() + "arscene-fuzz-\(reader.rawValue)-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    let files = FileManager.default
    try files.createDirectory(atPath: path, withIntermediateDirectories: true)
    let fixtures = FuzzSeeds.repository + "/Tests/Fixtures"
    switch reader {
    case .scene:
      // The shipped scenes' models, renamed in the seeds to this one.
      try files.copyItem(atPath: fixtures + "/obj/cube_quads.obj", toPath: path + "/m.obj")
    case .iosLogger:
      try files.copyItem(atPath: fixtures + "/recordings/ios_logger", toPath: path + "/ios")
    case .strayScanner:
      try files.createDirectory(atPath: path + "/stray", withIntermediateDirectories: true)
      try files.copyItem(
        atPath: fixtures + "/recordings/stray_scanner/camera_matrix.csv",
        toPath: path + "/stray/camera_matrix.csv")
    case .arkitScenes:
      // The frames, intrinsics and depth the fuzzed trajectory's times are matched with.
      try files.copyItem(atPath: fixtures + "/recordings/arkitscenes/41069021", toPath: path + "/arkitscenes")
    case .arkitDataLogger:
      try files.createDirectory(atPath: path + "/logger", withIntermediateDirectories: true)
    case .arcoreDataLogger:
      try files.createDirectory(atPath: path + "/arcore", withIntermediateDirectories: true)
    case .coreLocationGPS:
      try files.createDirectory(atPath: path + "/corelocation", withIntermediateDirectories: true)
      try
        "# Created at 2019-06-11 17:53:34 in KST in Seoul South Korea \n2713981549542 1 0 0 0.5 0 1 0 1.5 0 0 1 -2.0 \n"
        .write(toFile: path + "/corelocation/ARKit_camera_pose.txt", atomically: true, encoding: .utf8)
    case .record3DFolder:
      // The export's frames and EXR depth, the fuzzed metadata.json written beside them.
      try copy(["rgb", "depth"], from: fixtures + "/recordings/record3d_exr", to: path + "/record3dexr")
    case .strayIMU:
      try files.createDirectory(atPath: path + "/strayimu", withIntermediateDirectories: true)
      try files.copyItem(
        atPath: fixtures + "/recordings/stray_scanner/odometry.csv", toPath: path + "/strayimu/odometry.csv")
    case .threeDRecorder:
      // The real frame and depth the fuzzed poses name (frame 12).
      try copy(
        ["00000012_image.jpg", "00000012_depth16.bin"], from: fixtures + "/recordings/3d_recorder",
        to: path + "/recorder3d")
    case .eurocFolder:
      try files.createDirectory(atPath: path + "/euroc/mav0/cam0", withIntermediateDirectories: true)
      try "#timestamp [ns],filename\n1000,1000.png\n".write(
        toFile: path + "/euroc/mav0/cam0/data.csv", atomically: true, encoding: .utf8)
    case .tumRGBD:
      try files.createDirectory(atPath: path + "/tumrgbd", withIntermediateDirectories: true)
      try "1.0 depth/1.0.png\n1.04 depth/1.04.png\n".write(
        toFile: path + "/tumrgbd/depth.txt", atomically: true, encoding: .utf8)
      try "0.99 0 0 0 0 0 0 1\n1.05 0.1 0 0 0 0 0 1\n".write(
        toFile: path + "/tumrgbd/groundtruth.txt", atomically: true, encoding: .utf8)
    case .gltf:
      // The buffers and image the .gltf seeds name, where they exist.
      let models = FuzzSeeds.realData + "/models3d"
      for file in [
        "/khronos_via_draco/Box/glTF/Box0.bin", "/khronos_via_assimp/BoxTextured/glTF/BoxTextured0.bin",
        "/khronos_via_assimp/BoxTextured/glTF/CesiumLogoFlat.png",
      ] where files.fileExists(atPath: models + file) {
        try files.copyItem(atPath: models + file, toPath: path + "/" + (file as NSString).lastPathComponent)
      }
    case .reference: try FuzzInvariants.prepareReferences(in: path)
    case .output: try FuzzInvariants.prepareOutputs(in: path)
    default: break
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Copies `names` (files or folders) from the folder `source` into the folder `target`, made.
  private func copy(_ names: [String], from source: String, to target: String) throws {
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in names {
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
    }
  }
}
