/// What a recording's record times count (`time_base` in its header).
public enum RecordingTimeBase: String, Codable, Sendable, CaseIterable {
  /// Seconds since 1970, UTC (a GPS or wall clock).
  case unix
  /// Seconds since the device booted, as ARKit's and Android's frame timestamps.
  case uptime
  /// Seconds since the recording started.
  case session
  /// Pose numbers, not seconds (KITTI's poses carry no times).
  case index
  /// Not known: the layout does not say.
  case unknown
}
