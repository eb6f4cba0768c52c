import ARFiles
import ARMath

/// Stray Scanner's `imu.csv`: a header, then `timestamp, a_x, a_y, a_z, alpha_x, alpha_y,
/// alpha_z` a line, seconds since boot (the poses' clock), device axes. The rotation rates are
/// rad/s in every version; the accelerations are Core Motion's (the direction of gravity's pull)
/// in a unit the header does not say: g in the app's first IMU version (August 2021) and since
/// February 2025 (raw `CMAccelerometerData`), m/s² in between (`(userAcceleration + gravity) ·
/// 9.81`). The unit is told from the file's first readings, whose median magnitude is gravity's:
/// about 1 in g, about 9.8 in m/s²; a file whose readings are neither is refused, never guessed.
enum StrayScannerIMU {
  /// The column names, for messages.
  static let names = ["timestamp", "a_x", "a_y", "a_z", "alpha_x", "alpha_y", "alpha_z"]
  /// Readings looked at to tell the unit.
  static let sampleLines = 200

  /// The unit of a file's accelerations.
  enum Unit: Equatable {
    case g, metresPerSecondSquared

    /// The factor from the file's numbers to the specific force in m/s² (Core Motion's sign
    /// turned).
    var toSpecificForce: Double {
      self == .g ? -AccelerometerSample.standardGravity : -1
    }
  }

  /// Records of the file at `path`: an accelerometer and a gyroscope reading a line, and the
  /// unit its accelerations were told to be in (nil for a file without readings).
  static func source(_ path: String) throws(RecordingError) -> (LineRecordSource, Unit?) {
    let unit = try unit(path)
    let scale = unit?.toSpecificForce ?? 1
    let source = try LineRecordSource(path: path) { bytes, line throws(RecordingError) in
      guard
        let v = try DelimitedLine.numbers(
          bytes, path: path, line: line, columns: 7...7, names: names, allowHeader: true)
      else { return [] }
      return [
        .accelerometer(AccelerometerSample(time: v[0], acceleration: scale * SIMD3(v[1], v[2], v[3]))),
        .gyroscope(GyroscopeSample(time: v[0], rotationRate: [v[4], v[5], v[6]])),
      ]
    }
    return (source, unit)
  }

  /// The unit the first readings' median magnitude says, or nil when the file has none.
  static func unit(_ path: String) throws(RecordingError) -> Unit? {
    let prefix: [UInt8]
    do { prefix = try FileIO.readPrefix(path, count: 65_536) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    var magnitudes: [Double] = []
    // Whole lines only: the prefix may end inside one. Lines the reader would refuse are left
    // to it, which names them.
    for (i, line) in prefix.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated()
    where magnitudes.count < sampleLines {
      guard
        let v = try? DelimitedLine.numbers(
          Array(line), path: path, line: i + 1, columns: 7...7, names: names, allowHeader: true)
      else { continue }
      magnitudes.append(SIMD3(v[1], v[2], v[3]).length)
    }
    guard !magnitudes.isEmpty else { return nil }
    let median = magnitudes.sorted()[magnitudes.count / 2]
    if (0.5...2).contains(median) { return .g }
    if (5...20).contains(median) { return .metresPerSecondSquared }
    throw .badRecord(
      path: path, line: 0, field: "a_x, a_y, a_z",
      reason:
        "the first readings' median magnitude is \(median): neither about 1 (g) nor about 9.8 (m/s²), so their unit cannot be told"
    )
  }
}
