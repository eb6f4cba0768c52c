import Foundation

/// The inputs fuzzing starts from: the repository's files of each kind, the real third-party
/// files of ../shared/data/real where they are, and small inline ones where the repository has
/// none.
public enum FuzzSeeds {
  /// The repository's root, found from this file (through the Fuzz package's link too).
  public static let repository: String = {
    URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
  }()

  /// The real data beside the clone (absent in a clone without shared/).
  static let realData = repository + "/../shared/data/real"

  /// A recording with every record type, for the JSON Lines reader.
  static let recording = """
    {"type":"header","format":"arscene-recording","version":1,"time_base":"unix","source":"fuzz"}
    {"type":"pose","t":1.0,"translation":[0,1.6,0],"rotation_xyzw":[0,0,0,1],"tracking":"limited","tracking_reason":"initializing"}
    {"type":"frame","t":1.0,"index":0,"intrinsics":[1500,1500,960,720],"size":[1920,1440],"image":"f.jpg","depth":"d.png"}
    {"type":"gps","t":1.1,"latitude":49.9587,"longitude":14.3953,"height":437.2,"horizontal_accuracy":4.5,"vertical_accuracy":6,"course_deg":90,"speed":1.2}
    {"type":"heading","t":1.2,"true_heading_deg":120.5,"magnetic_heading_deg":116.1,"accuracy_deg":10}
    {"type":"magnetometer","t":1.3,"field_ut":[20.5,-3.1,40.2]}
    {"type":"tap","t":1.4,"point":[200,420],"expected":"LI4"}
    {"type":"truth","t":1.5,"latitude":49.9587,"longitude":14.3953,"height":437,"local_from_camera_xyzw":[0,0,0,1],"local_from_world_translation":[0,0,0],"local_from_world_rotation_xyzw":[0,0,0,1]}

    """

  /// A visit game's state file.
  static let game = """
    {"format":"arscene-visit-game","version":1,"current":"zavist-01","visited":[{"id":"zavist-01","time":1780272001}]}
    """

  /// The seed inputs of `reader`.
  public static func inputs(_ reader: FuzzReader) -> [[UInt8]] {
    var found = files(reader).compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
    switch reader {
    case .recording: found.append(Array(recording.utf8))
    case .game: found.append(Array(game.utf8))
    case .renderManifest:
      found.append(
        Array(
          """
          # a batch
          {"recording": "a.jsonl", "scene": "s.json", "frames": "out/a", "video": "out/a.mp4"}

          {"recording": "/data/b.jsonl", "frames": "out/b"}
          """.utf8))
    case .scene: found = found.map(Self.localModels)
    case .obj, .mtl, .usda, .reference, .output: found += hostile(reader).map { Array($0.utf8) }
    default: break
    }
    return found.isEmpty ? [Array("x".utf8)] : found
  }

  /// Inline seeds of the classes issue 67 found: nesting past the limits, a face past its
  /// corner cap, CR and CRLF line ends, references and output names that try to escape.
  static func hostile(_ reader: FuzzReader) -> [String] {
    let triangle = ["v 0 0 0", "v 1 0 0", "v 0 1 0", "f 1 2 3"]
    switch reader {
    case .obj:
      return [
        triangle.joined(separator: "\r"), triangle.joined(separator: "\r\n"),
        "mtllib /etc/passwd\n" + triangle.joined(separator: "\n"),
        "mtllib ../../etc/passwd\n" + triangle.joined(separator: "\n"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nf " + Array(repeating: "1 2 3", count: 1400).joined(separator: " "),
      ]
    case .mtl:
      return ["newmtl a\r\nKd 1 0 0\r\nmap_Kd ../x.png\r\n", "newmtl a\rmap_Kd /etc/passwd\r"]
    case .usda:
      let deep =
        (0..<140).map { "def Xform \"p\($0)\" {" }.joined(separator: "\n")
        + String(repeating: "}", count: 140)
      let tuples =
        "#usda 1.0\ndef Mesh \"m\" {\n point3f[] points = " + String(repeating: "(", count: 200)
        + String(repeating: ")", count: 200) + "\n}\n"
      return [
        "#usda 1.0\n" + deep, tuples,
        "#usda 1.0\ndef Mesh \"m\" {\n point3f[] points = [(0,0,0),(1,0,0),(0,1,0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0,1,2]\n}\n",
      ]
    case .reference:
      return [
        "tex.png\nsub/../tex.png\n../secret.txt\n..%2Fsecret.txt\n/etc/passwd\nout/secret.txt\nlink.png\n"
      ]
    case .output:
      return ["out.json\nfifo\nlink\ndir\ninput.txt\ndir/x\n"]
    default: return []
    }
  }

  /// The seed files of `reader`, in the repository and the real data.
  static func files(_ reader: FuzzReader) -> [String] {
    let fixtures = repository + "/Tests/Fixtures"
    switch reader {
    case .obj: return listing(fixtures + "/obj", "obj") + listing(fixtures + "/obj/bad", "obj")
    case .mtl: return listing(fixtures + "/obj", "mtl") + listing(repository + "/Scenes/models", "mtl")
    case .scene: return listing(repository + "/Scenes", "json") + listing(fixtures + "/scenes", "json")
    case .points: return [repository + "/Scenes/models/hand-right-points.json"]
    case .recording: return []
    case .iosLogger:
      return listing(fixtures + "/recordings/ios_logger", "txt")
        + listing(realData + "/ar_recordings/ios_logger_iphone_2021-07-29T12-52-25", "txt")
    case .strayScanner: return [fixtures + "/recordings/stray_scanner/odometry.csv"]
    case .arkitScenes: return [fixtures + "/recordings/arkitscenes/41069021/lowres_wide.traj"]
    case .arkitDataLogger:
      return listing(realData + "/ar_recordings/arkit_data_logger_iphoneXS_2019-07-22", "txt").filter {
        $0.contains("ARKit_camera_pose")
      }
    case .arcoreDataLogger: return [fixtures + "/recordings/arcore_data_logger/ARCore_sensor_pose.txt"]
    case .poseFile:
      return [fixtures + "/recordings/arcore_data_logger/ARCore_sensor_pose.txt"]
        + listing(realData + "/trajectories/tum_fr1_xyz", "txt")
        + listing(realData + "/trajectories/kitti_00", "txt")
    case .eurocFolder: return [fixtures + "/recordings/euroc_folder/sensor.yaml"]
    case .transformsJSON: return [fixtures + "/recordings/transforms_json/transforms.json"]
    case .record3D: return [fixtures + "/recordings/record3d/scan.r3d"]
    case .lzfse: return [fixtures + "/recordings/record3d/confidence-256x192.lzfse"]
    case .strayIMU: return [fixtures + "/recordings/stray_scanner/imu.csv"]
    case .exr: return listing(fixtures + "/images/exr", "exr")
    case .ktx2: return listing(fixtures + "/images/ktx2", "ktx2")
    case .webp:
      return listing(fixtures + "/images/webp", "webp") + listing(fixtures + "/gltf/webp/files", "webp")
    case .coreLocationGPS: return [fixtures + "/recordings/corelocation_gps.txt"]
    case .record3DFolder: return [fixtures + "/recordings/record3d_exr/metadata.json"]
    case .threeDRecorder:
      return [
        fixtures + "/recordings/3d_recorder/poses.csv",
        fixtures + "/recordings/3d_recorder/portrait/poses.csv",
      ]
    case .tumRGBD:
      return [realData + "/frames/tum_rgbd_fr1_rpy_excerpt/rgb.txt"].filter {
        FileManager.default.fileExists(atPath: $0)
      }
    case .tum: return listing(realData + "/trajectories/tum_fr1_xyz", "txt")
    case .euroc: return listing(realData + "/trajectories/euroc_V1_02", "csv")
    case .kitti: return listing(realData + "/trajectories/kitti_00", "txt")
    case .geojson:
      return listing(fixtures + "/places", "geojson") + [repository + "/Scenes/data/zavist-site.geojson"]
        + listing(realData + "/gps/geojson_leaflet_ajax", "geojson")
        + listing(realData + "/gps/geojson_supercluster", "geojson")
    case .stops:
      return [repository + "/Scenes/data/zavist-stops.json", fixtures + "/places/stop_bad_lon.json"]
    case .gpx:
      return listing(realData + "/gps/gpx_gpxpy", "gpx") + listing(realData + "/gps/gpx_togeojson", "gpx")
    case .cube:
      return listing(fixtures + "/film", "cube")
        + listing(realData + "/luts/colour_science_format_cases/iridas_cube", "cube")
        + listing(realData + "/luts/colour_science_format_cases/resolve_cube", "cube")
    case .preset: return listing(repository + "/Sources/ARFilm/Presets", "json")
    case .png:
      return [fixtures + "/film/grade-input.png", fixtures + "/recordings/stray_scanner/depth/000001.png"]
        + listing(
          repository + "/Examples/TapHitTests/Tests/AcupressureTapTests/__Snapshots__/HandSnapshotTests",
          "png")
    case .jpeg: return listing(fixtures + "/images", "jpg")
    case .pointCloud:
      return [repository + "/Scenes/data/table-scan.xyz", fixtures + "/pointclouds/floor-table.xyz"]
    case .game, .usda, .reference, .output: return []
    case .clicks: return [fixtures + "/control/clicks.csv"]
    case .dictionary: return [fixtures + "/markers/custom-5x5.yml"]
    case .renderManifest: return []
    case .usdz:
      // A bare binary layer too (read by content whatever its name): its stage metadata holds
      // a dictionary (fallbackPrimTypes).
      return listing(fixtures + "/usd", "usdz") + listing(fixtures + "/usd", "usdc")
        + [realData + "/models3d/usdz_tinyusdz/cube.usdz"].filter {
          FileManager.default.fileExists(atPath: $0)
        }
    case .gltf:
      let models = realData + "/models3d"
      return listing(fixtures + "/gltf", "glb") + listing(fixtures + "/gltf/webp", "glb")
        + [
          models + "/khronos_via_draco/Box/glTF/Box.gltf",
          models + "/khronos_via_draco/SimpleSkin/simple_skin.gltf",
          models + "/quantized_triangle_assimp_pr/triangle_mesh_quantized.gltf",
          models + "/khronos_via_assimp/BoxTextured/glTF/BoxTextured.gltf",
        ].filter { FileManager.default.fileExists(atPath: $0) }
    }
  }

  /// The files in `folder` named `*.extension`, largest last; none when the folder is absent.
  static func listing(_ folder: String, _ pathExtension: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix("." + pathExtension) }.sorted().map { folder + "/" + $0 }
  }

  /// A scene whose models are the work folder's `m.obj`, so that placing them goes on.
  static func localModels(_ bytes: [UInt8]) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    let pattern = try! NSRegularExpression(pattern: #""model"\s*:\s*"[^"]*""#)
    let range = NSRange(text.startIndex..., in: text)
    return Array(
      pattern.stringByReplacingMatches(in: text, range: range, withTemplate: #""model": "m.obj""#).utf8)
  }
}
