import ARPose

/// One line of `arscene marker detect --recording`: `{"frame", "time", "markers"}`, a
/// recording's frame by its index, its time (seconds, the recording's clock) and its markers as
/// ``MarkerReport`` gives them.
public struct MarkerFrameReport: Encodable, Sendable {
  public var frame: Int
  public var time: Double
  public var markers: [MarkerReport.Marker]
  public var rig: MarkerRigReport?

  public init(frame: Int, time: Double, markers: MarkerReport) {
    self.frame = frame
    self.time = time
    self.markers = markers.markers
    self.rig = markers.rig
  }

}
