import ARPose

/// What `arscene marker detect` prints for an image: `{"markers": [{"id", "corners", "hamming",
/// "bits_corrected", "decision_margin", "truncated", "corner_sigma_px", "pose"}]}`, corners `[[x, y], …]` in the dictionary's order (top-left,
/// top-right, bottom-right, bottom-left of the marker as drawn), ARScene's pixel convention.
public struct MarkerReport: Encodable, Sendable {
  /// One marker as reported: `{"id", "corners", "hamming", "bits_corrected", "decision_margin",
  /// "truncated", "corner_sigma_px", "pose"}`.
  public struct Marker: Encodable, Sendable {
    /// The marker's id in its dictionary.
    public var id: Int
    /// The four corners `[x, y]`, pixels, in the dictionary's order.
    public var corners: [[Double]]
    /// The bits corrected to match the dictionary's code (0: read exactly).
    public var hamming: Int
    /// The same count under the name the evidence is reported by (`bits_corrected`).
    public var bitsCorrected: Int { hamming }
    /// AprilTag's decision margin, grey levels (``DetectedMarker/decisionMargin``).
    public var decisionMargin: Double?
    /// Whether the marker runs to the image's edge, its corners there estimated.
    public var truncated: Bool
    /// The corners' 1-σ uncertainty per coordinate, pixels (``DetectedMarker/cornerSigma``).
    public var cornerSigma: Double?
    /// Both IPPE poses, as `arscene pose marker` prints them, when intrinsics and a size are given.
    public var pose: MarkerPose?

    enum CodingKeys: String, CodingKey {
      case id, corners, hamming, pose
      case bitsCorrected = "bits_corrected"
      case decisionMargin = "decision_margin"
      case truncated
      case cornerSigma = "corner_sigma_px"
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(corners, forKey: .corners)
      try container.encode(hamming, forKey: .hamming)
      try container.encode(bitsCorrected, forKey: .bitsCorrected)
      try container.encodeIfPresent(decisionMargin, forKey: .decisionMargin)
      try container.encode(truncated, forKey: .truncated)
      try container.encodeIfPresent(cornerSigma, forKey: .cornerSigma)
      try container.encodeIfPresent(pose, forKey: .pose)
    }
  }

  /// The markers found, by id.
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
    /// The four markers' ids, in OpenCV's order for a diamond.
    public var ids: [Int]
    /// The diamond's four outer corners `[x, y]`, pixels.
    public var corners: [[Double]]

    /// The report of `diamond`.
    public init(_ diamond: CharucoDiamond) {
      ids = diamond.ids
      corners = diamond.corners.map { [$0.x, $0.y] }
    }
  }

  /// The report of `detected`, each marker posed by `pose` when it is given.
  public init(_ detected: [DetectedMarker], pose: ((DetectedMarker) throws -> MarkerPose)? = nil) rethrows {
    markers = try detected.map { m in
      Marker(
        id: m.id, corners: m.corners.map { [$0.x, $0.y] }, hamming: m.hamming,
        decisionMargin: m.decisionMargin, truncated: m.truncated, cornerSigma: m.cornerSigma,
        pose: try pose?(m))
    }
  }
}
