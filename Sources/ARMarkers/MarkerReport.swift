import ARPose

/// What `arscene marker detect` prints for an image: `{"markers": [{"id", "corners", "hamming",
/// "pose"}]}`, corners `[[x, y], …]` in the dictionary's order (top-left, top-right,
/// bottom-right, bottom-left of the marker as drawn), ARScene's pixel convention.
public struct MarkerReport: Encodable, Sendable {
  public struct Marker: Encodable, Sendable {
    public var id: Int
    public var corners: [[Double]]
    public var hamming: Int
    /// Both IPPE poses, as `arscene pose marker` prints them, when intrinsics and a size are given.
    public var pose: MarkerPose?

    enum CodingKeys: String, CodingKey { case id, corners, hamming, pose }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(corners, forKey: .corners)
      try c.encode(hamming, forKey: .hamming)
      try c.encodeIfPresent(pose, forKey: .pose)
    }
  }

  public var markers: [Marker]

  /// The report of `detected`, posed by `pose` (given a marker's corners) when it is given.
  public init(_ detected: [DetectedMarker], pose: (([SIMD2<Double>]) throws -> MarkerPose)? = nil) rethrows {
    markers = try detected.map { m in
      Marker(
        id: m.id, corners: m.corners.map { [$0.x, $0.y] }, hamming: m.hamming, pose: try pose?(m.corners))
    }
  }
}
