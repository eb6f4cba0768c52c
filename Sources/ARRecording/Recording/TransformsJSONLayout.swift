import ARFiles
import ARMath
import Foundation

/// A `transforms.json` as nerfstudio, instant-ngp and Polycam (through nerfstudio) write it: one
/// camera-to-world matrix a frame, the camera shared or per frame. docs/recordings.md maps every
/// member.
///
/// - `frames[i].transform_matrix`: 4×4, rows, camera to world in OpenGL's camera convention
///   (x right, y up, looking down −Z), which is ARKit's: the frame's `worldFromCamera` as is. Its
///   3×3 part must be a rotation (determinant 1 within 1e-3): a scaled scene is refused.
/// - `fl_x, fl_y, cx, cy, w, h` at the top or in a frame (the frame's win); instant-ngp's
///   `camera_angle_x` (and `camera_angle_y`) when there are no focal lengths. Pixel centres are
///   at +0.5, as nerfstudio and instant-ngp cast their rays: ARScene's convention.
/// - `camera_model`: `OPENCV` (`k1, k2, p1, p2`, `k3` when given), `OPENCV_FISHEYE` (`k1…k4`),
///   `PINHOLE` or `SIMPLE_PINHOLE`, or absent (a pinhole unless coefficients are given); any other
///   is refused, never drawn as a pinhole.
/// - `file_path`, `depth_file_path` (16-bit millimetres), relative to the file's folder.
///
/// The file has no times: frames are taken in the order of their `file_path` (numbers in names
/// compared as numbers) and spaced `1 / framesPerSecond` apart from 0; the header says so.
enum TransformsJSONLayout {
  /// The file in a folder.
  static let fileName = "transforms.json"
  /// The frame rate times are made with when the caller gives none.
  static let defaultFramesPerSecond = 30.0

  /// Whether `bytes` (a file's first bytes) are a JSON object with `frames`: a transforms file.
  static func isTransforms(_ bytes: [UInt8]) -> Bool {
    guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
      return false
    }
    return String(decoding: bytes, as: UTF8.self).contains("\"frames\"")
  }

  static func open(path: String, framesPerSecond: Double?, log: ReadLog) throws(RecordingError) -> (
    RecordingHeader, [any RecordSource]
  ) {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let file = isDirectory.boolValue ? RecordingFormat.join(path, fileName) : path
    let fps = framesPerSecond ?? defaultFramesPerSecond
    guard fps > 0, fps.isFinite else {
      throw .badRecord(
        path: file, line: 0, field: "frames per second", reason: "expected a positive rate, got \(fps)")
    }
    let root = try document(file)
    guard let frames = root["frames"] as? [[String: Any]] else {
      throw .badRecord(path: file, line: 0, field: "/frames", reason: "expected an array of frame objects")
    }
    let shared = try camera(root, pointer: "", path: file, shared: nil)
    let ordered = frames.enumerated().map { ($0.offset, $0.element) }.sorted {
      (($0.1["file_path"] as? String) ?? "").localizedStandardCompare(($1.1["file_path"] as? String) ?? "")
        == .orderedAscending
    }
    var records: [(RecordingRecord, path: String)] = []
    for (n, (i, frame)) in ordered.enumerated() {
      let pointer = "/frames/\(i)"
      let time = Double(n) / fps
      let pose = try worldFromCamera(
        frame["transform_matrix"], pointer: pointer + "/transform_matrix", path: file)
      let camera = try Self.camera(frame, pointer: pointer, path: file, shared: shared)
      guard let image = frame["file_path"] as? String, !image.isEmpty else {
        throw .badRecord(
          path: file, line: 0, field: pointer + "/file_path", reason: "expected the image's path")
      }
      var sample = CameraFrameSample(
        time: time, index: n, intrinsics: camera.pinhole, imageSize: camera.size, image: .file(image),
        depthPath: frame["depth_file_path"] as? String, lens: camera.lens)
      sample.depthPerMetre = 1000
      records.append((.pose(CameraPoseSample(time: time, worldFromCamera: pose)), file))
      records.append((.frame(sample), file))
    }
    let header = RecordingHeader(
      source: RecordingFormat.transformsJSON.rawValue, timeBase: .session,
      description: "transforms.json has no times: frames in file order, \(fps) a second")
    return (header, [ArrayRecordSource(records)])
  }

  /// The file's top-level object.
  static func document(_ file: String) throws(RecordingError) -> [String: Any] {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(file) } catch { throw .unreadable(path: file, reason: error.reason) }
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
      let root = object as? [String: Any]
    else { throw .unknownFormat(path: file, reason: "not a JSON object (transforms.json)") }
    return root
  }

  /// A frame's camera: its own members over the shared ones.
  struct Camera {
    var pinhole: Pinhole<Double>?
    var size: SIMD2<Int>?
    var lens: LensDistortion
    var values: [String: Any]
  }

  static func camera(
    _ object: [String: Any], pointer: String, path: String, shared: Camera?
  ) throws(RecordingError) -> Camera {
    var values = shared?.values ?? [:]
    for key in ["fl_x", "fl_y", "cx", "cy", "w", "h", "camera_angle_x", "camera_angle_y", "camera_model"]
      + ["k1", "k2", "k3", "k4", "p1", "p2"]
    where object[key] != nil {
      values[key] = object[key]
    }
    func number(_ key: String) throws(RecordingError) -> Double? {
      guard let value = values[key] else { return nil }
      guard let n = (value as? NSNumber)?.doubleValue, n.isFinite else {
        throw .badRecord(path: path, line: 0, field: pointer + "/" + key, reason: "expected a finite number")
      }
      return n
    }
    let (w, h) = (try number("w"), try number("h"))
    var size: SIMD2<Int>?
    if let w, let h {
      guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded(), w <= 1e6, h <= 1e6 else {
        throw .badRecord(
          path: path, line: 0, field: pointer + "/w", reason: "expected whole pixels, got \(w)×\(h)")
      }
      size = SIMD2(Int(w), Int(h))
    }
    var fx = try number("fl_x"), fy = try number("fl_y")
    if fx == nil, let angle = try number("camera_angle_x"), let w { fx = w / 2 / Foundation.tan(angle / 2) }
    if fy == nil, let angle = try number("camera_angle_y"), let h { fy = h / 2 / Foundation.tan(angle / 2) }
    var pinhole: Pinhole<Double>?
    if let fx {
      let cx = try number("cx") ?? size.map { Double($0.x) / 2 },
        cy = try number("cy") ?? size.map { Double($0.y) / 2 }
      guard let cx, let cy else {
        throw .badRecord(
          path: path, line: 0, field: pointer + "/cx", reason: "no principal point and no image size")
      }
      do { pinhole = try Pinhole(validatingFx: fx, fy: fy ?? fx, cx: cx, cy: cy) } catch {
        throw .badRecord(path: path, line: 0, field: pointer + "/fl_x", reason: error.description)
      }
    }
    return Camera(
      pinhole: pinhole, size: size, lens: try lens(values, number, pointer: pointer, path: path),
      values: values)
  }

  /// The lens `camera_model` and the coefficients name.
  static func lens(
    _ values: [String: Any], _ number: (String) throws(RecordingError) -> Double?, pointer: String,
    path: String
  ) throws(RecordingError) -> LensDistortion {
    let model = (values["camera_model"] as? String) ?? "OPENCV"
    let radial = ["k1", "k2", "p1", "p2", "k3"], fisheye = ["k1", "k2", "k3", "k4"]
    let coefficients: [Double]
    switch model {
    case "PINHOLE", "SIMPLE_PINHOLE": return .none
    case "OPENCV": coefficients = try radial.map { key throws(RecordingError) in try number(key) ?? 0 }
    case "OPENCV_FISHEYE":
      coefficients = try fisheye.map { key throws(RecordingError) in try number(key) ?? 0 }
    default:
      throw .badRecord(
        path: path, line: 0, field: pointer + "/camera_model",
        reason: "'\(model.escapedForMessage)' is not read (OPENCV, OPENCV_FISHEYE, PINHOLE, SIMPLE_PINHOLE)")
    }
    guard coefficients.contains(where: { $0 != 0 }) else { return .none }
    do { return try LensDistortion(opencv: coefficients, fisheye: model == "OPENCV_FISHEYE") } catch {
      throw .badRecord(path: path, line: 0, field: pointer + "/k1", reason: error.description)
    }
  }

  /// A `transform_matrix`: 4 rows of 4 numbers, the last `0 0 0 1`, its 3×3 part a rotation.
  static func worldFromCamera(_ value: Any?, pointer: String, path: String) throws(RecordingError)
    -> RigidTransform<Double>
  {
    guard let rows = value as? [[Any]], rows.count >= 3, rows.allSatisfy({ $0.count == 4 }) else {
      throw .badRecord(path: path, line: 0, field: pointer, reason: "expected 4 rows of 4 numbers")
    }
    let v = rows.prefix(3).flatMap { $0 }.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
    guard v.allSatisfy(\.isFinite) else {
      throw .badRecord(path: path, line: 0, field: pointer, reason: "expected finite numbers")
    }
    do { return try TrajectoryFormat.rowMajorPose(v, from: 0) } catch {
      throw .badRecord(
        path: path, line: 0, field: pointer, reason: error.reason + "; a scaled scene is not read")
    }
  }
}
