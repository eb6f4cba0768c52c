import ARFiles
import ARMath
import Foundation

/// `gps.txt` of the CoreLocation Motion Data Logger (github.com/PyojinKim/CoreLocationMotion-
/// Data-Logger), beside the ARKit poses its ARKit-recording version writes in the same folder
/// (`ARKit_camera_pose.txt`, read by ``ARKitDataLoggerLayout``). docs/recordings.md maps every
/// column.
///
/// A `# Created at …` line, then a line a `CLLocation`, spaces: `t_ns latitude longitude
/// horizontalAccuracy altitude` and two more, whose order changed in October 2019: `floor
/// verticalAccuracy` before, `verticalAccuracy floor` since. The app prints the floor (an `Int`)
/// with `%f`, which gives `nan` or `0.000000`, never a real accuracy: the column that only ever
/// holds those is the floor, the other the vertical accuracy; a file where that cannot be told is
/// refused.
///
/// The fixes are stamped in Unix nanoseconds (`CLLocation.timestamp`), the poses in uptime
/// nanoseconds (`ARFrame.timestamp`): the two clocks are joined by the pose file's first line,
/// `# Created at yyyy-MM-dd HH:mm:ss in <zone>`, written as recording started, against its first
/// pose, which puts the fixes on the poses' clock to about a second (the line's seconds are
/// whole). Without such a line (the ARKit Data Logger's own app writes none with a zone) the fixes
/// cannot be placed, and the reader says so rather than guess.
enum CoreLocationMotionLoggerGPS {
  /// The file's name beside the poses.
  static let fileName = "gps.txt"
  /// The column names, for messages.
  static let names = [
    "t_ns", "latitude", "longitude", "horizontalAccuracy", "altitude", "column 6", "column 7",
  ]

  /// Where the vertical accuracy is: column 6 (since October 2019), column 7 (before), or in
  /// neither (both hold only the floor's `nan`/0).
  enum VerticalAccuracyColumn: Equatable {
    case sixth, seventh, none
  }

  /// The fixes of `path` on the poses' uptime clock, `unixMinusUptime` seconds behind Unix time.
  static func source(_ path: String, unixMinusUptime: Double, log: ReadLog) throws(RecordingError)
    -> LineRecordSource
  {
    let column = try verticalAccuracyColumn(path)
    return try LineRecordSource(path: path) { bytes, line throws(RecordingError) in
      guard let v = try numbers(bytes, path: path, line: line) else { return [] }
      guard v[3] >= 0 else {
        log.skip("\(path):\(line): horizontalAccuracy: \(v[3]) marks an invalid fix; skipped")
        return []
      }
      let vertical: Double? =
        switch column {
        case .sixth: v[5]
        case .seventh: v[6]
        case .none: nil
        }
      let valid = vertical.map { $0 > 0 && $0.isFinite } ?? false
      let fix = GPSFix(
        time: v[0] * 1e-9 - unixMinusUptime, latitude: v[1], longitude: v[2], altitudeMSL: valid ? v[4] : nil,
        horizontalAccuracy: v[3], verticalAccuracy: valid ? vertical : nil)
      do throws(JSONLine.Failure) { try RecordCheck.gps(fix) } catch {
        throw .badRecord(path: path, line: line, field: error.field, reason: error.reason)
      }
      return [.gps(fix)]
    }
  }

  /// A line's seven numbers: the first five finite, the last two as printed (the floor's `nan`
  /// is the app's); nil for the `#` line and blank ones.
  static func numbers(_ bytes: [UInt8], path: String, line: Int) throws(RecordingError) -> [Double]? {
    let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard let first = fields.first, !first.hasPrefix("#") else { return nil }
    guard fields.count == 7 else {
      throw .badRecord(
        path: path, line: line, field: "line",
        reason: "expected 7 numbers (\(names.joined(separator: " "))), got \(fields.count)")
    }
    var values: [Double] = []
    for (i, field) in fields.enumerated() {
      guard let value = Double(field), value.isFinite || (i >= 5 && value.isNaN) else {
        throw .badRecord(
          path: path, line: line, field: names[i],
          reason: "'\(String(field).quotedForMessage)' is not a finite number")
      }
      values.append(value)
    }
    return values
  }

  /// Which column holds the vertical accuracy, told by the file's lines (see the type's notes).
  static func verticalAccuracyColumn(_ path: String) throws(RecordingError) -> VerticalAccuracyColumn {
    var (sixthIsFloor, seventhIsFloor) = (true, true)
    for bytes in try LineRecordSource.allLines(path) {
      let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      guard fields.count == 7, !fields[0].hasPrefix("#") else { continue }
      func isFloor(_ text: Substring) -> Bool { Double(text).map { $0.isNaN || $0 == 0 } ?? false }
      sixthIsFloor = sixthIsFloor && isFloor(fields[5])
      seventhIsFloor = seventhIsFloor && isFloor(fields[6])
    }
    switch (sixthIsFloor, seventhIsFloor) {
    case (true, true): return .none
    case (true, false): return .seventh
    case (false, true): return .sixth
    case (false, false):
      throw .badRecord(
        path: path, line: 0, field: "column 6, column 7",
        reason:
          "neither holds only the floor's nan or 0 (the app prints its Int floor with %f): which is the vertical accuracy cannot be told"
      )
    }
  }

  /// Unix time minus uptime, seconds, from the pose file's `# Created at …` line and first pose.
  /// - Throws: When the line is missing or names no time zone Foundation knows.
  static func unixMinusUptime(poseFile: String) throws(RecordingError) -> Double {
    let lines = try PoseFileContent.sample(poseFile)
    let head: [UInt8]
    do { head = try FileIO.readPrefix(poseFile, count: 512) } catch {
      throw .unreadable(path: poseFile, reason: error.reason)
    }
    let first = String(decoding: head.prefix { $0 != 0x0A }, as: UTF8.self)
    guard let started = createdAt(first), let firstPose = lines.first?.values.first else {
      throw .badRecord(
        path: poseFile, line: 1, field: "header",
        reason:
          "\(fileName) is stamped in Unix time and the poses in uptime; joining them needs this file's '# Created at yyyy-MM-dd HH:mm:ss in <zone>' line, which it does not have"
      )
    }
    return started.timeIntervalSince1970 - firstPose * 1e-9
  }

  /// The moment a `# Created at 2019-06-11 17:53:34 in KST …` line names, or nil.
  static func createdAt(_ line: String) -> Date? {
    let words = line.split(separator: " ")
    guard words.count >= 7, words[0] == "#", words[1] == "Created", words[2] == "at", words[5] == "in",
      let zone = TimeZone(abbreviation: String(words[6]))
    else { return nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    formatter.timeZone = zone
    return formatter.date(from: "\(words[3]) \(words[4])")
  }
}
