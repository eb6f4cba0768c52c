import ARMath
import Foundation

/// ios_logger's folder (github.com/Varvrar/ios_logger), one comma-separated text file a sensor,
/// lines ending `\r\n`, times in seconds since 1970 (`bootTime + ARFrame.timestamp` for poses
/// and frames, `CLLocation.timestamp` for fixes and headings). docs/recordings.md maps every
/// column.
///
/// | file | columns | becomes |
/// | --- | --- | --- |
/// | `ARposes.txt` | `t, tx, ty, tz, qw, qx, qy, qz` (`ARCamera.transform`) | pose |
/// | `Frames.txt` | `t, frame[, fx, fy, cx, cy]` | frame of `Frames.m4v` |
/// | `GPS.txt` | `t, lat, lon, horizontalAccuracy, altitude, verticalAccuracy, floor, course, speed` | gps (altitude above mean sea level) |
/// | `Head.txt` | `t, trueHeading, magneticHeading, headingAccuracy` | heading |
/// | `Magnet.txt` | `t, x, y, z` (µT) | magnetometer |
/// | `Accel.txt` | `t, x, y, z` (`CMAccelerometerData`, g) | accelerometer (m/s², the specific force) |
/// | `Gyro.txt` | `t, x, y, z` (`CMGyroData`, rad/s) | gyroscope |
///
/// iOS marks what it does not know with negative numbers: a fix with a negative horizontal
/// accuracy or a heading with a negative accuracy is invalid and skipped (and counted); a
/// negative vertical accuracy, course, speed or true heading leaves that field out. The logger
/// writes the last known fix and heading again when recording starts, so a line identical to
/// the one before is skipped (and counted) rather than taken for a repeated timestamp.
enum IOSLoggerLayout {
  static func open(path: String, log: ReadLog) throws(RecordingError) -> (RecordingHeader, [any RecordSource])
  {
    func file(_ name: String) -> String? {
      let p = RecordingFormat.join(path, name)
      return FileManager.default.fileExists(atPath: p) ? p : nil
    }
    let videoSize = file("Frames.m4v").flatMap(VideoFileInfo.size(path:))
    var sources: [any RecordSource] = []
    if let p = file("ARposes.txt") {
      sources.append(
        try source(p, log, columns: 8...8, names: ["t", "tx", "ty", "tz", "qw", "qx", "qy", "qz"]) {
          v, line throws(RecordingError) in
          guard let q = Quaternion(vector: SIMD4(v[5], v[6], v[7], v[4])).normalizedOrNil() else {
            throw .badRecord(
              path: p, line: line, field: "qw, qx, qy, qz", reason: "a quaternion of zero length")
          }
          return .pose(
            CameraPoseSample(
              time: v[0], worldFromCamera: RigidTransform(rotation: q, translation: [v[1], v[2], v[3]])))
        })
    }
    if let p = file("Frames.txt") {
      sources.append(
        try source(p, log, columns: 2...6, names: ["t", "frame", "fx", "fy", "cx", "cy"]) {
          v, line throws(RecordingError) in
          guard v[1] >= 0, v[1] == v[1].rounded(), v[1] < 1e12 else {
            throw .badRecord(path: p, line: line, field: "frame", reason: "expected a frame number ≥ 0")
          }
          var intrinsics: Pinhole<Double>?
          if v.count == 6 {
            guard v[2] > 0, v[3] > 0 else {
              throw .badRecord(path: p, line: line, field: "fx, fy", reason: "focal lengths must be positive")
            }
            intrinsics = Pinhole(fx: v[2], fy: v[3], cx: v[4], cy: v[5])
          } else if v.count != 2 {
            throw .badRecord(
              path: p, line: line, field: "line", reason: "expected 2 or 6 columns, got \(v.count)")
          }
          let index = Int(v[1])
          return .frame(
            CameraFrameSample(
              time: v[0], index: index, intrinsics: intrinsics, imageSize: videoSize,
              image: .video(path: "Frames.m4v", frame: index)))
        })
    }
    if let p = file("GPS.txt") { sources.append(try fixes(p, log)) }
    if let p = file("Head.txt") { sources.append(try headings(p, log)) }
    if let p = file("Magnet.txt") {
      sources.append(
        try source(p, log, columns: 4...4, names: ["t", "x", "y", "z"]) { v, _ throws(RecordingError) in
          .magnetometer(MagnetometerSample(time: v[0], field: [v[1], v[2], v[3]]))
        })
    }
    // The motion sensors' queues can write a reading a line late: put back in time order.
    if let p = file("Accel.txt") {
      let readings = try source(p, log, columns: 4...4, names: ["t", "x", "y", "z"]) {
        v, _ throws(RecordingError) in
        .accelerometer(AccelerometerSample(time: v[0], coreMotionG: [v[1], v[2], v[3]]))
      }
      sources.append(ReorderedRecordSource(readings, log: log))
    }
    if let p = file("Gyro.txt") {
      let readings = try source(p, log, columns: 4...4, names: ["t", "x", "y", "z"]) {
        v, _ throws(RecordingError) in
        .gyroscope(GyroscopeSample(time: v[0], rotationRate: [v[1], v[2], v[3]]))
      }
      sources.append(ReorderedRecordSource(readings, log: log))
    }
    guard !sources.isEmpty else {
      throw .unknownFormat(
        path: path,
        reason:
          "no ios_logger files (ARposes.txt, Frames.txt, GPS.txt, Head.txt, Magnet.txt, Accel.txt, Gyro.txt)")
    }
    return (RecordingHeader(source: "ios_logger", timeBase: .unix), sources)
  }

  /// `GPS.txt`'s fixes (see the type's notes on iOS's markers).
  private static func fixes(_ p: String, _ log: ReadLog) throws(RecordingError) -> LineRecordSource {
    let names = [
      "t", "latitude", "longitude", "horizontalAccuracy", "altitude", "verticalAccuracy", "floor", "course",
      "speed",
    ]
    return try source(p, log, columns: 9...9, names: names) { v, line throws(RecordingError) in
      guard v[3] >= 0 else {
        log.skip("\(p):\(line): horizontalAccuracy: \(v[3]) marks an invalid fix; skipped")
        return nil
      }
      let valid = v[5] >= 0
      let fix = GPSFix(
        time: v[0], latitude: v[1], longitude: v[2], altitudeMSL: valid ? v[4] : nil,
        horizontalAccuracy: v[3],
        verticalAccuracy: valid ? v[5] : nil, courseDegrees: v[7] >= 0 ? v[7] : nil,
        speed: v[8] >= 0 ? v[8] : nil)
      do throws(JSONLine.Failure) { try RecordCheck.gps(fix) } catch {
        throw .badRecord(
          path: p, line: line, field: Self.column(error.field, names), reason: error.reason)
      }
      return .gps(fix)
    }
  }

  /// `Head.txt`'s headings.
  private static func headings(_ p: String, _ log: ReadLog) throws(RecordingError) -> LineRecordSource {
    let names = ["t", "trueHeading", "magneticHeading", "headingAccuracy"]
    return try source(p, log, columns: 4...4, names: names) { v, line throws(RecordingError) in
      guard v[3] >= 0 else {
        log.skip("\(p):\(line): headingAccuracy: \(v[3]) marks an invalid heading; skipped")
        return nil
      }
      let sample = HeadingSample(
        time: v[0], trueHeadingDegrees: v[1] >= 0 ? v[1] : nil, magneticHeadingDegrees: v[2],
        accuracyDegrees: v[3])
      do throws(JSONLine.Failure) { try RecordCheck.heading(sample) } catch {
        throw .badRecord(
          path: p, line: line, field: Self.column(error.field, names), reason: error.reason)
      }
      return .heading(sample)
    }
  }

  /// ARScene's field name for the error of a check, as the ios_logger column it came from.
  private static func column(_ field: String, _ names: [String]) -> String {
    let map = [
      "latitude": "latitude", "longitude": "longitude", "horizontal_accuracy": "horizontalAccuracy",
      "vertical_accuracy": "verticalAccuracy", "course_deg": "course", "speed": "speed",
      "magnetic_heading_deg": "magneticHeading", "true_heading_deg": "trueHeading",
      "accuracy_deg": "headingAccuracy",
    ]
    return map[field] ?? field
  }

  /// A comma-separated file of numbers, one record a line; a line equal to the one before is
  /// skipped (see the type's notes).
  private static func source(
    _ path: String, _ log: ReadLog, columns: ClosedRange<Int>, names: [String],
    _ record: @escaping ([Double], Int) throws(RecordingError) -> RecordingRecord?
  ) throws(RecordingError) -> LineRecordSource {
    var previous: [UInt8] = []
    return try LineRecordSource(path: path) { bytes, line throws(RecordingError) in
      if !bytes.isEmpty, bytes == previous {
        log.skip("\(path):\(line): the line before, repeated; skipped")
        return []
      }
      previous = bytes
      guard let v = try DelimitedLine.numbers(bytes, path: path, line: line, columns: columns, names: names)
      else {
        return []
      }
      return try record(v, line).map { [$0] } ?? []
    }
  }
}
