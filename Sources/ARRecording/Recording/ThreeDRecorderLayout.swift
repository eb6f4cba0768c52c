import ARFiles
import ARMath
import Foundation

/// A 3D Recorder folder (github.com/remmel/recorder-3d: Huawei AR Engine, ARCore's API, on
/// phones with a time-of-flight camera). docs/recordings.md maps every column.
///
/// - `poses.csv`: a header, then a line a saved frame, commas:
///   `frame,tx,ty,tz,qx,qy,qz,qw,yaw,pitch,roll,` and, by the app's version, `projection`
///   (2020–21) or `timems` (since June 2021). `frame` is the number of the frame the app drew
///   (8 digits, the files' prefix); `t`, `q` are `ARCamera.getPose()`: the physical camera in the
///   session's world (y up), in OpenGL's camera convention, ARKit's, as is; yaw, pitch and roll
///   repeat `q` and are not read. `timems` is milliseconds since recording began; without it the
///   frames are timed by their numbers at the app's drawing rate (`framesPerSecond`, 30 unless
///   given), and the header says so.
/// - `projection`: 16 numbers, spaces, the display's OpenGL projection matrix column by column.
///   Its x scale and offset are the image's (`fx = P00·w/2`, `cx = w/2 − P02·w/2`); its y scale
///   is the display's crop of the image, so `fy` is taken equal to `fx` and `cy` from the crop's
///   height (``intrinsics(projection:imageSize:)``). A portrait display's matrix is turned to the
///   image's landscape axes first (a camera sensor mounted at 90°, as for ARCore's loggers).
/// - `NNNNNNNN_image.jpg` (the size the user chose) or `NNNNNNNN_image_vga.jpg` (640×480): the
///   frame; `NNNNNNNN_depth16.bin`: Android's `DEPTH16`, no header, its size told by its byte
///   count at the frame's aspect ratio (``DepthEncoding/androidDepth16(width:height:)``).
enum ThreeDRecorderLayout {
  /// The poses' file name the app writes.
  static let poseFile = "poses.csv"
  /// The columns every version's header starts with.
  static let leadingColumns = ["frame", "tx", "ty", "tz", "qx", "qy", "qz", "qw"]
  /// The frames' drawing rate frames are timed by when the file has no times.
  static let defaultFramesPerSecond = 30.0

  /// Whether `bytes` (a file's first bytes) start with the poses file's header.
  static func isPoseFile(_ bytes: [UInt8]) -> Bool {
    let header = leadingColumns.joined(separator: ",")
    return String(decoding: bytes.prefix(200), as: UTF8.self).hasPrefix(header)
  }

  /// What a version's header adds after the pose.
  enum Extra: Equatable {
    case none, projection, timeMilliseconds
  }

  static func open(path: String, framesPerSecond: Double?, log: ReadLog) throws(RecordingError) -> (
    RecordingHeader, [any RecordSource]
  ) {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let file = isDirectory.boolValue ? RecordingFormat.join(path, poseFile) : path
    let folder = RecordingFormat.parent(file)
    let fps = framesPerSecond ?? defaultFramesPerSecond
    guard fps > 0, fps.isFinite else {
      throw .badRecord(
        path: file, line: 0, field: "frames per second", reason: "expected a positive rate, got \(fps)")
    }
    let lines = try LineRecordSource.allLines(file)
    let extra = try headerExtra(lines.first ?? [], path: file)
    var records: [(RecordingRecord, path: String)] = []
    for (i, bytes) in lines.enumerated().dropFirst() {
      let row = try Row(bytes, extra: extra, path: file, line: i + 1)
      guard let row else { continue }
      let time = extra == .timeMilliseconds ? row.time! / 1000 : Double(row.frame) / fps
      records.append((.pose(CameraPoseSample(time: time, worldFromCamera: row.worldFromCamera)), file))
      if let frame = try frame(row, time: time, folder: folder, path: file, line: i + 1) {
        records.append((.frame(frame), file))
      }
    }
    let timing =
      extra == .timeMilliseconds
      ? "times from timems" : "no times: frames timed by their numbers, \(fps) a second"
    let header = RecordingHeader(
      source: RecordingFormat.threeDRecorder.rawValue, timeBase: .session,
      description: "3D Recorder poses.csv, \(timing)")
    return (header, [ArrayRecordSource(records)])
  }

  /// The header line's columns after the pose, checked.
  static func headerExtra(_ bytes: [UInt8], path: String) throws(RecordingError) -> Extra {
    let names = String(decoding: bytes, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    guard names.starts(with: leadingColumns) else {
      throw .badRecord(
        path: path, line: 1, field: "header",
        reason: "expected 3D Recorder's header \(leadingColumns.joined(separator: ",")),…")
    }
    switch Array(names.dropFirst(8)) {
    case [], ["yaw", "pitch", "roll"]: return .none
    case ["yaw", "pitch", "roll", "projection"]: return .projection
    case ["yaw", "pitch", "roll", "timems"]: return .timeMilliseconds
    case let other:
      throw .badRecord(
        path: path, line: 1, field: "header",
        reason:
          "after qw, expected yaw,pitch,roll then projection or timems; got '\(other.joined(separator: ",").quotedForMessage)'"
      )
    }
  }

  /// A line of `poses.csv`.
  struct Row {
    var frame: Int
    var worldFromCamera: RigidTransform<Double>
    /// Milliseconds since recording began (`timems`).
    var time: Double?
    /// The display's projection, column by column (`projection`).
    var projection: [Double]?

    /// The line's values, checked; nil for a blank line.
    init?(_ bytes: [UInt8], extra: Extra, path: String, line: Int) throws(RecordingError) {
      let text = String(decoding: bytes, as: UTF8.self)
      guard !text.allSatisfy(\.isWhitespace) else { return nil }
      let fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let expected = extra == .none ? [8, 11] : [12]
      guard expected.contains(fields.count) else {
        throw .badRecord(
          path: path, line: line, field: "line",
          reason:
            "expected \(expected.map(String.init).joined(separator: " or ")) columns, got \(fields.count)")
      }
      func number(_ i: Int, _ name: String) throws(RecordingError) -> Double {
        guard let v = Double(fields[i]), v.isFinite else {
          throw .badRecord(
            path: path, line: line, field: name,
            reason: "'\(fields[i].quotedForMessage)' is not a finite number")
        }
        return v
      }
      guard fields[0].count <= 12, let frame = Int(fields[0]), frame >= 0 else {
        throw .badRecord(
          path: path, line: line, field: "frame",
          reason: "'\(fields[0].quotedForMessage)' is not a frame number")
      }
      self.frame = frame
      var v: [Double] = []
      for (i, name) in leadingColumns.enumerated().dropFirst() { v.append(try number(i, name)) }
      let q = SIMD4(v[3], v[4], v[5], v[6])
      guard PoseFileContent.isUnitQuaternion(q), let unit = Quaternion(vector: q).normalizedOrNil() else {
        throw .badRecord(
          path: path, line: line, field: "qx, qy, qz, qw",
          reason: "columns 5–8 are not a unit quaternion (norm \(q.length))")
      }
      worldFromCamera = RigidTransform(rotation: unit, translation: [v[0], v[1], v[2]])
      switch extra {
      case .none: break
      case .timeMilliseconds: time = try number(11, "timems")
      case .projection:
        let values = fields[11].split(separator: " ").map { Double($0) }
        guard values.count == 16, let matrix = values as? [Double], matrix.allSatisfy(\.isFinite) else {
          throw .badRecord(
            path: path, line: line, field: "projection",
            reason: "expected 16 finite numbers separated by spaces (a 4×4 matrix, column by column)")
        }
        projection = matrix
      }
    }
  }

  /// The saved frame of `row`, when its image is in the folder; its intrinsics from the row's
  /// projection and the image's size.
  static func frame(
    _ row: Row, time: Double, folder: String, path: String, line: Int
  ) throws(RecordingError) -> CameraFrameSample? {
    let prefix = String(row.frame).leftPadded(to: 8)
    let files = FileManager.default
    guard
      let image = [prefix + "_image.jpg", prefix + "_image_vga.jpg"].first(where: {
        files.fileExists(atPath: RecordingFormat.join(folder, $0))
      })
    else { return nil }
    let size = ImageHeader.size(path: RecordingFormat.join(folder, image))
    var sample = CameraFrameSample(time: time, index: row.frame, imageSize: size, image: .file(image))
    if let projection = row.projection, let size {
      do { sample.intrinsics = try intrinsics(projection: projection, imageSize: size) } catch {
        throw .badRecord(path: path, line: line, field: "projection", reason: "\(error)")
      }
    }
    let depth = prefix + "_depth16.bin"
    let depthFile = RecordingFormat.join(folder, depth)
    if let size, let attributes = try? files.attributesOfItem(atPath: depthFile),
      let bytes = attributes[.size] as? Int
    {
      guard let depthSize = depth16Size(bytes: bytes, aspectOf: size) else {
        throw .badRecord(
          path: depthFile, line: 0, field: "size",
          reason:
            "\(bytes) bytes are not a DEPTH16 image at the frame's \(size.x)×\(size.y) aspect ratio: its width and height cannot be told"
        )
      }
      sample.depthPath = depth
      sample.depthEncoding = .androidDepth16(width: depthSize.x, height: depthSize.y)
    }
    return sample
  }

  /// The width and height of a headerless `DEPTH16` image of `bytes` bytes whose aspect ratio
  /// is the colour frame's, or nil when no whole size fits.
  static func depth16Size(bytes: Int, aspectOf image: SIMD2<Int>) -> SIMD2<Int>? {
    guard bytes > 0, bytes % 2 == 0 else { return nil }
    let pixels = bytes / 2
    let width = Int((Double(pixels) * Double(image.x) / Double(image.y)).squareRoot().rounded())
    guard width > 0, pixels % width == 0 else { return nil }
    let height = pixels / width
    // The aspect ratio must be the frame's to a pixel (240×180 for 1440×1080).
    guard abs(width * image.y - height * image.x) < image.y else { return nil }
    return SIMD2(width, height)
  }

  /// The image's intrinsics from the display's projection matrix `m` (column by column) and the
  /// image's size: the focal length from the x scale at the image's width, the principal point
  /// from the offsets at the crop the display shows (the image scaled to cover the display,
  /// centred). A matrix of a display turned from the image (its x scale the larger for a landscape
  /// image) is first turned to the image's axes. Square pixels are assumed: the matrix's y scale is the crop's, not a second
  /// focal length.
  static func intrinsics(projection m: [Double], imageSize: SIMD2<Int>) throws(CameraIntrinsicsError)
    -> Pinhole<Double>
  {
    guard m[11] == -1, m[0] > 0, m[5] > 0 else {
      throw .invalid(field: "projection", reason: "is not a camera's perspective (P00, P11 > 0 and P32 = −1)")
    }
    // The displayed crop has the image's orientation (landscape: x scale ≤ y scale) unless the
    // display was turned from it.
    let turned = (m[0] > m[5]) != (imageSize.x < imageSize.y)
    let (scaleX, scaleY) = turned ? (m[5], m[0]) : (m[0], m[5])
    let (offsetX, offsetY) = turned ? (-m[9], m[8]) : (m[8], m[9])
    let (w, h) = (Double(imageSize.x), Double(imageSize.y))
    // The displayed crop: the image's full width when that leaves a height within the image.
    let cropWidth = w * scaleX / scaleY <= h ? w : h * scaleY / scaleX
    let cropHeight = cropWidth * scaleX / scaleY
    let focal = scaleX * cropWidth / 2
    return try Pinhole(
      validatingFx: focal, fy: focal, cx: w / 2 - offsetX * cropWidth / 2,
      cy: h / 2 + offsetY * cropHeight / 2)
  }
}
