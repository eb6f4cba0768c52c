import ARPose

/// One line of `arscene marker detect --recording`: `{"frame", "time", "markers"}`, a
/// recording's frame by its index, its time (seconds, the recording's clock) and its markers as
/// ``MarkerReport`` gives them.
public struct MarkerFrameReport: Encodable, Sendable {
  /// The frame's index in the recording.
  public var frame: Int
  /// The frame's time, seconds on the recording's clock.
  public var time: Double
  /// The markers found in the frame, by id.
  public var markers: [MarkerReport.Marker]
  /// The rig's pose in the frame, when a rig was given.
  public var rig: MarkerRigReport?

  /// The line for frame `frame` at `time` seconds, with the markers and rig of `markers`.
  public init(frame: Int, time: Double, markers: MarkerReport) {
    self.frame = frame
    self.time = time
    self.markers = markers.markers
    self.rig = markers.rig
  }

}
