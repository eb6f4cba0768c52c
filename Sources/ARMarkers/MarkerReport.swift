import ARPose

/// What `arscene marker detect` prints for an image: `{"markers": [{"id", "corners", "hamming",
/// "corner_sigma_px", "pose"}]}`, corners `[[x, y], …]` in the dictionary's order (top-left,
/// top-right, bottom-right, bottom-left of the marker as drawn), ARScene's pixel convention.
public struct MarkerReport: Encodable, Sendable {
  public struct Marker: Encodable, Sendable {
    public var id: Int
    public var corners: [[Double]]
    public var hamming: Int
    /// The corners' 1-σ uncertainty per coordinate, pixels (``DetectedMarker/cornerSigma``).
    public var cornerSigma: Double?
    /// Both IPPE poses, as `arscene pose marker` prints them, when intrinsics and a size are given.
    public var pose: MarkerPose?

    enum CodingKeys: String, CodingKey {
      case id, corners, hamming, pose
      case cornerSigma = "corner_sigma_px"
    }
  }

  public var markers: [Marker]
  /// The rig's pose, when a rig was given (`arscene marker detect --rig`).
  public var rig: MarkerRigReport?
  /// The board's corners and pose, when a board was given (`arscene marker detect --board`).
  public var board: MarkerBoardReport?
  /// The ChArUco diamonds found, when asked for (`arscene marker detect --diamond RATIO`):
  /// `{"ids": [4 ids], "corners": [[x, y] × 4]}` each.
  public var diamonds: [Diamond]?

  /// A diamond as reported.
  public struct Diamond: Encodable, Sendable {
    public var ids: [Int]
    public var corners: [[Double]]

    public init(_ diamond: CharucoDiamond) {
      ids = diamond.ids
      corners = diamond.corners.map { [$0.x, $0.y] }
    }
  }

  /// The report of `detected`, each marker posed by `pose` when it is given.
  public init(_ detected: [DetectedMarker], pose: ((DetectedMarker) throws -> MarkerPose)? = nil) rethrows {
    markers = try detected.map { m in
      Marker(
        id: m.id, corners: m.corners.map { [$0.x, $0.y] }, hamming: m.hamming, cornerSigma: m.cornerSigma,
        pose: try pose?(m))
    }
  }
}
