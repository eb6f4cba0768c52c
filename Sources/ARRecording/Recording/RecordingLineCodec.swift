import ARMath

/// ARScene's recording format, one JSON object a line (docs/recording.md and
/// docs/recording.schema.json): the codec of one line.
///
/// The first line is the header (`"type":"header"`), then one record a line, in time order.
/// Names follow the repository's conventions: snake case, degrees only where a name ends in
/// `_deg`, quaternions `[x, y, z, w]`, transforms `parent_from_child`. Members whose names
/// start with `x_` are extensions and are ignored; any other unknown member is an error, so a
/// misspelt field is never silently lost.
enum RecordingLineCodec {
  static let formatName = "arscene-recording"

  // MARK: Writing

  static func line(_ header: RecordingHeader) -> String {
    var w = Writer(type: "header")
    w.string("format", formatName)
    w.integer("version", header.version)
    w.string("source", header.source)
    w.string("time_base", header.timeBase.rawValue)
    if let d = header.description { w.string("description", d) }
    return w.finished
  }

  static func line(_ record: RecordingRecord) -> String {
    var w = Writer(type: record.stream.rawValue)
    w.number("t", record.time)
    switch record {
    case .pose(let p):
      let q = p.worldFromCamera.rotation.vector
      w.numbers(
        "translation",
        [p.worldFromCamera.translation.x, p.worldFromCamera.translation.y, p.worldFromCamera.translation.z])
      w.numbers("rotation_xyzw", [q.x, q.y, q.z, q.w])
      switch p.tracking {
      case .normal: w.string("tracking", "normal")
      case .notAvailable: w.string("tracking", "not_available")
      case .limited(let reason):
        w.string("tracking", "limited")
        w.string("tracking_reason", reason)
      }
    case .frame(let f):
      w.integer("index", f.index)
      if let k = f.intrinsics { w.numbers("intrinsics", [k.fx, k.fy, k.cx, k.cy]) }
      if let s = f.imageSize { w.numbers("size", [Double(s.x), Double(s.y)]) }
      switch f.image {
      case .file(let path)?: w.string("image", path)
      case .video(let path, let frame)?:
        w.string("video", path)
        w.integer("video_frame", frame)
      case nil: break
      }
      if let d = f.depthPath { w.string("depth", d) }
      if f.depthPerMetre != 1000 { w.number("depth_per_metre", f.depthPerMetre) }
      if let c = f.confidencePath { w.string("confidence", c) }
      if let a = f.archive { w.string("archive", a) }
      switch f.depthEncoding {
      case .png16: break
      case .lzfseFloat32(let width, let height):
        w.string("depth_encoding", "lzfse_float32")
        w.numbers("depth_size", [Double(width), Double(height)])
      case .androidDepth16(let width, let height):
        w.string("depth_encoding", "android_depth16")
        w.numbers("depth_size", [Double(width), Double(height)])
      case .exr: w.string("depth_encoding", "exr")
      }
      let lens = f.lens.opencvCoefficients
      if !lens.values.isEmpty { w.numbers(lens.fisheye ? "fisheye" : "distortion", lens.values) }
    case .gps(let g):
      w.number("latitude", g.latitude)
      w.number("longitude", g.longitude)
      if let h = g.height { w.number("height", h) }
      if let a = g.altitudeMSL { w.number("altitude_msl", a) }
      w.number("horizontal_accuracy", g.horizontalAccuracy)
      if let v = g.verticalAccuracy { w.number("vertical_accuracy", v) }
      if let c = g.courseDegrees { w.number("course_deg", c) }
      if let s = g.speed { w.number("speed", s) }
    case .heading(let h):
      if let t = h.trueHeadingDegrees { w.number("true_heading_deg", t) }
      w.number("magnetic_heading_deg", h.magneticHeadingDegrees)
      if let a = h.accuracyDegrees { w.number("accuracy_deg", a) }
    case .magnetometer(let m):
      w.numbers("field_ut", [m.field.x, m.field.y, m.field.z])
    case .accelerometer(let a):
      w.numbers("acceleration_m_s2", [a.acceleration.x, a.acceleration.y, a.acceleration.z])
    case .gyroscope(let g):
      w.numbers("rotation_rate_rad_s", [g.rotationRate.x, g.rotationRate.y, g.rotationRate.z])
    case .tap(let t):
      w.numbers("point", [t.point.x, t.point.y])
      if let e = t.expected { w.string("expected", e) }
    case .truth(let t):
      w.number("latitude", t.latitude)
      w.number("longitude", t.longitude)
      w.number("height", t.height)
      let q = t.localFromCamera.vector
      w.numbers("local_from_camera_xyzw", [q.x, q.y, q.z, q.w])
      if let m = t.localFromWorld {
        let r = m.rotation.vector
        w.numbers("local_from_world_translation", [m.translation.x, m.translation.y, m.translation.z])
        w.numbers("local_from_world_rotation_xyzw", [r.x, r.y, r.z, r.w])
      }
    case .geoPose(let g): writeGeoPose(g, to: &w)
    }
    return w.finished
  }

  /// Builds one line: members in a fixed order, numbers in their shortest exact form.
  struct Writer {
    var text: String

    init(type: String) { text = "{\"type\":\"\(type)\"" }

    var finished: String { text + "}" }

    mutating func number(_ key: String, _ x: Double) { text += ",\"\(key)\":\(Self.format(x))" }
    mutating func integer(_ key: String, _ x: Int) { text += ",\"\(key)\":\(x)" }
    mutating func numbers(_ key: String, _ xs: [Double]) {
      text += ",\"\(key)\":[" + xs.map(Self.format).joined(separator: ",") + "]"
    }
    mutating func string(_ key: String, _ s: String) { text += ",\"\(key)\":" + Self.quoted(s) }

    /// Shortest round-trip digits; whole numbers without a fraction (JSON allows both).
    static func format(_ x: Double) -> String {
      if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
      return "\(x)"
    }

    static func quoted(_ s: String) -> String {
      var out = "\""
      for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }
  }

  // MARK: Reading

  /// The header of a recording, from its first line.
  static func header(_ bytes: [UInt8], path: String) throws(RecordingError) -> RecordingHeader {
    do {
      let o = try JSONLine(bytes)
      guard (try? o.string(.type)) == "header", (try? o.string(.format)) == formatName else {
        throw RecordingError.unknownFormat(
          path: path,
          reason:
            "line 1 is not an ARScene recording header ({\"type\":\"header\",\"format\":\"\(formatName)\",…})"
        )
      }
      let version = try o.number(.version)
      guard version == Double(RecordingHeader.currentVersion) else {
        throw RecordingError.badRecord(
          path: path, line: 1, field: "version",
          reason:
            "version \(Writer.format(version)) is unknown; this build reads version \(RecordingHeader.currentVersion)"
        )
      }
      try rejectUnknown(o, .header)
      return RecordingHeader(
        version: RecordingHeader.currentVersion, source: try o.string(.source),
        timeBase: try timeBase(o),
        description: try o.optionalString(.description))
    } catch let failure as JSONLine.Failure {
      throw .badRecord(path: path, line: 1, field: failure.field, reason: failure.reason)
    } catch let error as RecordingError {
      throw error
    } catch {
      throw .badRecord(path: path, line: 1, field: "line", reason: "\(error)")
    }
  }

  /// The record on one line.
  static func record(_ bytes: UnsafeBufferPointer<UInt8>, path: String, line: Int) throws(RecordingError)
    -> RecordingRecord
  {
    do throws(JSONLine.Failure) {
      let o = try JSONLine(bytes)
      let type = try o.string(.type)
      guard let stream = RecordingStream(rawValue: type) else {
        throw JSONLine.Failure(
          field: "type",
          reason:
            "'\(type)' is not a record type (\(RecordingStream.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      let t = try o.number(.t)
      switch stream {
      case .pose: return try poseRecord(o, time: t)
      case .frame: return try frameRecord(o, time: t)
      case .gps: return try gpsRecord(o, time: t)
      case .heading: return try headingRecord(o, time: t)
      case .magnetometer: return try magnetometerRecord(o, time: t)
      case .accelerometer:
        try rejectUnknown(o, .accelerometer)
        let a = try vector3(o.numbers(.accelerationMetresPerSecondSquared, count: 3))
        return .accelerometer(AccelerometerSample(time: t, acceleration: a))
      case .gyroscope:
        try rejectUnknown(o, .gyroscope)
        let w = try vector3(o.numbers(.rotationRateRadiansPerSecond, count: 3))
        return .gyroscope(GyroscopeSample(time: t, rotationRate: w))
      case .tap: return try tapRecord(o, time: t)
      case .truth: return try truthRecord(o, time: t)
      case .geoPose: return try geoPoseRecord(o, time: t)
      }
    } catch {
      throw .badRecord(path: path, line: line, field: error.field, reason: error.reason)
    }
  }

  /// A `pose` record: the camera's pose in the session's world and its tracking state.
  private static func poseRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .pose)
    let tracking: TrackingState
    switch try o.optionalString(.tracking) ?? "normal" {
    case "normal": tracking = .normal
    case "not_available": tracking = .notAvailable
    case "limited": tracking = .limited(reason: try o.optionalString(.trackingReason) ?? "unknown")
    case let other:
      throw JSONLine.Failure(field: "tracking", reason: "'\(other)' is not normal, limited or not_available")
    }
    return .pose(
      CameraPoseSample(
        time: t,
        worldFromCamera: RigidTransform(
          rotation: try unitQuaternion(o.numbers(.rotationXYZW, count: 4), field: "rotation_xyzw"),
          translation: try vector3(o.numbers(.translation, count: 3))),
        tracking: tracking))
  }

  /// A `frame` record: a camera frame, its intrinsics, size, image (a file or a video's frame) and depth.
  private static func frameRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .frame)
    var intrinsics: Pinhole<Double>?
    if let k = try o.optionalNumbers(.intrinsics, count: 4) {
      guard k[0] > 0, k[1] > 0 else {
        throw JSONLine.Failure(field: "intrinsics", reason: "focal lengths must be positive")
      }
      intrinsics = Pinhole(fx: k[0], fy: k[1], cx: k[2], cy: k[3])
    }
    var size: SIMD2<Int>?
    if let s = try o.optionalNumbers(.size, count: 2) {
      size = SIMD2(try whole(s[0], field: "size", minimum: 1), try whole(s[1], field: "size", minimum: 1))
    }
    var image: FrameImageSource?
    if let path = try o.optionalString(.image) {
      image = .file(path)
    } else if let video = try o.optionalString(.video) {
      image = .video(
        path: video, frame: try whole(try o.number(.videoFrame), field: "video_frame", minimum: 0))
    }
    var frame = CameraFrameSample(
      time: t, index: try whole(try o.number(.index), field: "index", minimum: 0), intrinsics: intrinsics,
      imageSize: size, image: image, depthPath: try o.optionalString(.depth),
      confidencePath: try o.optionalString(.confidence), lens: try lens(o))
    if let units = try o.optionalNumber(.depthPerMetre) {
      guard units > 0, units.isFinite else {
        throw JSONLine.Failure(
          field: "depth_per_metre", reason: "expected a positive number of units a metre")
      }
      frame.depthPerMetre = units
    }
    frame.archive = try o.optionalString(.archive)
    frame.depthEncoding = try depthEncoding(o)
    return .frame(frame)
  }

  /// A frame's `depth_encoding` (`png16` when absent; `exr`; `lzfse_float32` or
  /// `android_depth16` with its `depth_size`).
  private static func depthEncoding(_ o: JSONLine) throws(JSONLine.Failure) -> DepthEncoding {
    let encoding = try o.optionalString(.depthEncoding)
    switch encoding {
    case nil, "png16"?: return .png16
    case "exr"?: return .exr
    case "lzfse_float32"?, "android_depth16"?:
      guard let s = try o.optionalNumbers(.depthSize, count: 2) else {
        throw JSONLine.Failure(field: "depth_size", reason: "\(encoding!) depth needs its [width, height]")
      }
      let (w, h) = (
        try whole(s[0], field: "depth_size", minimum: 1), try whole(s[1], field: "depth_size", minimum: 1)
      )
      guard w <= 16384, h <= 16384 else {
        throw JSONLine.Failure(field: "depth_size", reason: "over 16384 pixels a side")
      }
      return encoding == "lzfse_float32"
        ? .lzfseFloat32(width: w, height: h) : .androidDepth16(width: w, height: h)
    case let other?:
      throw JSONLine.Failure(
        field: "depth_encoding",
        reason: "'\(other.escapedForMessage)' is not png16, lzfse_float32, android_depth16 or exr")
    }
  }

  /// The header's `time_base`: one of ``RecordingTimeBase``'s values, never guessed.
  private static func timeBase(_ o: JSONLine) throws(JSONLine.Failure) -> RecordingTimeBase {
    let text = try o.string(.timeBase)
    guard let base = RecordingTimeBase(rawValue: text) else {
      let known = RecordingTimeBase.allCases.map(\.rawValue).joined(separator: ", ")
      throw JSONLine.Failure(field: "time_base", reason: "'\(text.escapedForMessage)' is not one of \(known)")
    }
    return base
  }

  /// A frame's lens: `distortion` (OpenCV's 4, 5 or 8 coefficients) or `fisheye` (4), not both.
  private static func lens(_ o: JSONLine) throws(JSONLine.Failure) -> LensDistortion {
    let radial = try o.optionalNumberList(.distortion), fisheye = try o.optionalNumberList(.fisheye)
    guard radial == nil || fisheye == nil else {
      throw JSONLine.Failure(field: "fisheye", reason: "a frame has distortion or fisheye, not both")
    }
    guard let coefficients = radial ?? fisheye else { return .none }
    do { return try LensDistortion(opencv: coefficients, fisheye: fisheye != nil) } catch {
      throw JSONLine.Failure(field: fisheye != nil ? "fisheye" : "distortion", reason: error.description)
    }
  }

  /// A `gps` record: a fix, checked.
  private static func gpsRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .gps)
    let fix = GPSFix(
      time: t, latitude: try o.number(.latitude), longitude: try o.number(.longitude),
      height: try o.optionalNumber(.height), altitudeMSL: try o.optionalNumber(.altitudeMSL),
      horizontalAccuracy: try o.number(.horizontalAccuracy),
      verticalAccuracy: try o.optionalNumber(.verticalAccuracy),
      courseDegrees: try o.optionalNumber(.courseDegrees),
      speed: try o.optionalNumber(.speed))
    try RecordCheck.gps(fix)
    return .gps(fix)
  }

  /// A `heading` record: a compass reading, checked.
  private static func headingRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord
  {
    try rejectUnknown(o, .heading)
    let sample = HeadingSample(
      time: t, trueHeadingDegrees: try o.optionalNumber(.trueHeadingDegrees),
      magneticHeadingDegrees: try o.number(.magneticHeadingDegrees),
      accuracyDegrees: try o.optionalNumber(.accuracyDegrees))
    try RecordCheck.heading(sample)
    return .heading(sample)
  }

  /// A `magnetometer` record: the raw field, µT.
  private static func magnetometerRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure)
    -> RecordingRecord
  {
    try rejectUnknown(o, .magnetometer)
    return .magnetometer(
      MagnetometerSample(time: t, field: try vector3(o.numbers(.fieldMicrotesla, count: 3))))
  }

  /// A `tap` record: a touch on the screen, and the point it should select.
  private static func tapRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .tap)
    let p = try o.numbers(.point, count: 2)
    return .tap(TapSample(time: t, point: SIMD2(p[0], p[1]), expected: try o.optionalString(.expected)))
  }

  /// A `truth` record: where the camera truly was (simulations, surveyed sessions).
  private static func truthRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .truth)
    var localFromWorld: RigidTransform<Double>?
    if o[.localFromWorldTranslation] != nil, o[.localFromWorldRotationXYZW] == nil {
      throw JSONLine.Failure(
        field: "local_from_world_rotation_xyzw", reason: "missing (it goes with local_from_world_translation)"
      )
    }
    if let r = try o.optionalNumbers(.localFromWorldRotationXYZW, count: 4) {
      localFromWorld = RigidTransform(
        rotation: try unitQuaternion(r, field: "local_from_world_rotation_xyzw"),
        translation: try vector3(o.numbers(.localFromWorldTranslation, count: 3)))
    }
    let truth = GroundTruthSample(
      time: t, latitude: try o.number(.latitude), longitude: try o.number(.longitude),
      height: try o.number(.height),
      localFromCamera: try unitQuaternion(
        o.numbers(.localFromCameraXYZW, count: 4), field: "local_from_camera_xyzw"),
      localFromWorld: localFromWorld)
    try RecordCheck.position(latitude: truth.latitude, longitude: truth.longitude)
    return .truth(truth)
  }

  static func rejectUnknown(_ o: JSONLine, _ known: RecordingFieldSet) throws(JSONLine.Failure) {
    if let key = o.firstUnknownKey(known) {
      throw JSONLine.Failure(
        field: key, reason: "not a member of this record type (extensions start with x_)")
    }
  }

  private static func vector3(_ v: SIMD4<Double>) -> SIMD3<Double> { SIMD3(v[0], v[1], v[2]) }

  /// The quaternion, normalised unless it is a unit one to rounding already (so that what was
  /// written is read back bit for bit).
  static func unitQuaternion(_ v: SIMD4<Double>, field: String) throws(JSONLine.Failure) -> Quaternion<Double>
  {
    let given = Quaternion(vector: v)
    if abs((given.vector * given.vector).sum() - 1) <= 8 * Double.ulpOfOne { return given }
    guard let q = given.normalizedOrNil() else {
      throw JSONLine.Failure(field: field, reason: "a quaternion of zero length")
    }
    return q
  }

  private static func whole(_ x: Double, field: String, minimum: Int) throws(JSONLine.Failure) -> Int {
    guard x == x.rounded(), x >= Double(minimum), x < 1e15 else {
      throw JSONLine.Failure(field: field, reason: "expected a whole number ≥ \(minimum), got \(x)")
    }
    return Int(x)
  }
}
