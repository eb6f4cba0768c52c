import ARMath

/// The streams of a recording, named as ARScene's recording format names its record types.
public enum RecordingStream: String, Sendable, CaseIterable, Codable, Comparable {
  /// Camera poses, camera frames, GPS fixes, compass headings, magnetometer, accelerometer and
  /// gyroscope samples, screen taps, the truth's poses and the platform's geo poses.
  case pose, frame, gps, heading, magnetometer, accelerometer, gyroscope, tap, truth
  /// The platform's geo poses (`geo_pose` records).
  case geoPose = "geo_pose"

  /// Streams in the order of `allCases`.
  public static func < (a: RecordingStream, b: RecordingStream) -> Bool { a.ordinal < b.ordinal }

  /// The stream's place in ``allCases``, 0…9.
  var ordinal: Int {
    switch self {
    case .pose: 0
    case .frame: 1
    case .gps: 2
    case .heading: 3
    case .magnetometer: 4
    case .accelerometer: 5
    case .gyroscope: 6
    case .tap: 7
    case .truth: 8
    case .geoPose: 9
    }
  }
}
