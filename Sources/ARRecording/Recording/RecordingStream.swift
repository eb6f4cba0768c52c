import ARMath

/// The streams of a recording, named as ARScene's recording format names its record types.
public enum RecordingStream: String, Sendable, CaseIterable, Codable, Comparable {
  case pose, frame, gps, heading, magnetometer, tap, truth

  public static func < (a: RecordingStream, b: RecordingStream) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
