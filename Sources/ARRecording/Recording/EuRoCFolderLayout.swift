import ARFiles
import ARMath
import Foundation

/// An EuRoC MAV sequence folder in the ASL layout (projects.asl.ethz.ch/datasets, "The EuRoC MAV
/// Dataset"): the folder holding `mav0/`, or `mav0/` itself. docs/recordings.md maps every file.
///
/// - `cam0/data.csv`: `#timestamp [ns],filename` a frame of `cam0/data/` (752×480 grey PNG).
/// - `cam0/sensor.yaml`: the camera's `intrinsics` (`fu, fv, cu, cv`, Kalibr's, whose pixel
///   centres are at integers: ARScene's principal point is theirs plus 0.5), its
///   `distortion_coefficients` (`radial-tangential`: OpenCV's k1, k2, p1, p2; `equidistant`:
///   the fisheye k1…k4), `resolution`, and `T_BS`, the camera's pose on the body (IMU).
/// - `state_groundtruth_estimate0/data.csv` (else `vicon0/data.csv` or `leica0/data.csv`'s
///   positions are not used): the body's pose in the motion-capture world, `p_RS_R`, `q_RS`
///   (w first), nanoseconds. The camera's pose is the body's composed with `T_BS`, its OpenCV
///   camera (y down, looking down +Z) turned to ARKit's; it is the recording's `pose` stream.
enum EuRoCFolderLayout {
  /// The `mav0` folder of `path`.
  static func mav0(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent == "mav0" ? path : RecordingFormat.join(path, "mav0")
  }

  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    let root = mav0(path)
    let yaml = RecordingFormat.join(root, "cam0/sensor.yaml")
    let sensor = try SensorYAML(path: yaml)
    let bodyFromCamera = try sensor.bodyFromCamera()
    let camera = try sensor.camera()
    let list = RecordingFormat.join(root, "cam0/data.csv")
    let prefix = root == path ? "cam0/data/" : "mav0/cam0/data/"  // relative to the recording's folder
    var index = 0
    let frames = try LineRecordSource(path: list) { bytes, line throws(RecordingError) in
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty, !text.hasPrefix("#") else { return [] }
      let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let nanoseconds = Double(parts[0]), nanoseconds >= 0 else {
        throw .badRecord(path: list, line: line, field: "line", reason: "expected 'timestamp [ns],filename'")
      }
      defer { index += 1 }
      return [
        .frame(
          CameraFrameSample(
            time: nanoseconds * 1e-9, index: index, intrinsics: camera.pinhole, imageSize: camera.size,
            image: .file(prefix + parts[1]), lens: camera.lens))
      ]
    }
    var sources: [any RecordSource] = [frames]
    let truth = RecordingFormat.join(root, "state_groundtruth_estimate0/data.csv")
    if FileManager.default.fileExists(atPath: truth) {
      sources.append(try groundTruth(truth, bodyFromCamera: bodyFromCamera))
    }
    let header = RecordingHeader(
      source: RecordingFormat.eurocFolder.rawValue, timeBase: .unix,
      description: "EuRoC MAV: poses are the ground truth's body poses composed with cam0's T_BS")
    return (header, sources)
  }

  /// The ground truth's body poses as cam0's, in ARKit's camera convention.
  static func groundTruth(_ path: String, bodyFromCamera: RigidTransform<Double>) throws(RecordingError)
    -> LineRecordSource
  {
    try PoseFileContent.verify(path, as: .euroc)
    let turn: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: .arkit, to: .opencv)
    return try LineRecordSource.poses(path, .euroc) { body in body * bodyFromCamera * turn }
  }

  /// The few members of a Kalibr `sensor.yaml` a camera needs, each a list of numbers.
  struct SensorYAML {
    let path: String
    let text: String

    init(path: String) throws(RecordingError) {
      do { text = String(decoding: try FileIO.readText(path), as: UTF8.self) } catch {
        throw .unreadable(path: path, reason: error.reason)
      }
      self.path = path
    }

    /// The numbers of `key: [ … ]` (on one line or several), or of `key:`'s nested `data: [ … ]`.
    func numbers(_ key: String, count: ClosedRange<Int>) throws(RecordingError) -> [Double]? {
      guard
        let start = text.range(of: "\n" + key + ":")
          ?? (text.hasPrefix(key + ":") ? text.range(of: key + ":") : nil)
      else { return nil }
      let rest = text[start.upperBound...]
      guard let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") else {
        throw .badRecord(path: path, line: 0, field: key, reason: "expected a list of numbers in [ ]")
      }
      let inside = rest[rest.index(after: open)..<close].split(separator: "\n")
        .map { $0.split(separator: "#", maxSplits: 1).first ?? "" }.joined(separator: ",")
      let fields = inside.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
      let values = fields.compactMap { Double($0) }
      guard values.count == fields.count, values.allSatisfy(\.isFinite), count.contains(values.count) else {
        throw .badRecord(
          path: path, line: 0, field: key,
          reason: "expected \(count.lowerBound)–\(count.upperBound) finite numbers")
      }
      return values
    }

    /// A `key: value` member's text.
    func word(_ key: String) -> String? {
      guard let start = text.range(of: key + ":") else { return nil }
      let line = text[start.upperBound...].prefix { $0 != "\n" }
      return line.split(separator: "#").first?.trimmingCharacters(in: .whitespaces)
    }

    /// `T_BS`: the camera's pose on the body, a rigid 4×4 (rows).
    func bodyFromCamera() throws(RecordingError) -> RigidTransform<Double> {
      guard let m = try numbers("T_BS", count: 16...16) else {
        throw .badRecord(path: path, line: 0, field: "T_BS", reason: "missing: the camera's pose on the body")
      }
      do { return try TrajectoryFormat.rowMajorPose(Array(m.prefix(12)), from: 0) } catch {
        throw .badRecord(path: path, line: 0, field: "T_BS", reason: error.reason)
      }
    }

    /// The pinhole (principal point moved half a pixel to ARScene's convention), size and lens.
    func camera() throws(RecordingError) -> (pinhole: Pinhole<Double>, size: SIMD2<Int>, lens: LensDistortion)
    {
      guard let k = try numbers("intrinsics", count: 4...4), let r = try numbers("resolution", count: 2...2)
      else {
        throw .badRecord(path: path, line: 0, field: "intrinsics", reason: "missing intrinsics or resolution")
      }
      guard r.allSatisfy({ $0 >= 1 && $0 <= 1e6 && $0 == $0.rounded() }) else {
        throw .badRecord(path: path, line: 0, field: "resolution", reason: "expected whole pixels")
      }
      let pinhole: Pinhole<Double>
      do { pinhole = try Pinhole(validatingFx: k[0], fy: k[1], cx: k[2] + 0.5, cy: k[3] + 0.5) } catch {
        throw .badRecord(path: path, line: 0, field: "intrinsics", reason: error.description)
      }
      let model = word("distortion_model") ?? "radial-tangential"
      let d = try numbers("distortion_coefficients", count: 4...5) ?? []
      let lens: LensDistortion
      do {
        switch model {
        case "radial-tangential": lens = d.allSatisfy { $0 == 0 } ? .none : try LensDistortion(opencv: d)
        case "equidistant": lens = try LensDistortion(opencv: d, fisheye: true)
        default:
          throw RecordingError.badRecord(
            path: path, line: 0, field: "distortion_model",
            reason: "'\(model.escapedForMessage)' is not read (radial-tangential, equidistant)")
        }
      } catch let error as RecordingError {
        throw error
      } catch {
        throw .badRecord(path: path, line: 0, field: "distortion_coefficients", reason: "\(error)")
      }
      return (pinhole, SIMD2(Int(r[0]), Int(r[1])), lens)
    }
  }
}
