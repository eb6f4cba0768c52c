/// Where a session alignment's yaw came from (`alignment.source` in a validation report).
public enum SessionYawSource: String, Codable, Sendable, CaseIterable {
  /// The compass alone: no fixes' track long enough to see a yaw.
  case compass
  /// The GPS track alone: no compass readings.
  case gpsTrack = "gps_track"
  /// The GPS track and the compass, weighted by their uncertainties.
  case fused
}
