import ARMath
import ARPose

/// What `arscene marker detect --board` adds to its report: the board's markers found, a
/// ChArUco board's chessboard corners, and the board's pose from every corner seen
/// (`camera_from_board`, OpenCV camera convention, board x right, y down, metres).
public struct MarkerBoardReport: Encodable, Sendable {
  /// A ChArUco chessboard corner as found in the image (ARScene's pixel convention).
  public struct Corner: Encodable, Sendable {
    /// The corner's id: inner chessboard corners counted row by row from 0.
    public var id: Int
    /// Where it is, `[x, y]` pixels.
    public var pixel: [Double]
  }

  /// The board's markers found (once each), by id.
  public var markers: [Int]
  /// A ChArUco board's chessboard corners found; empty for a grid board.
  public var charucoCorners: [Corner]
  /// The board's poses from all its corners seen, best first (IPPE's two for a plane); nil
  /// without intrinsics or with fewer than 4 corners.
  public var pose: [PoseSolution]?

  enum CodingKeys: String, CodingKey {
    case markers, pose
    case charucoCorners = "charuco_corners"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(markers, forKey: .markers)
    try c.encode(charucoCorners, forKey: .charucoCorners)
    try c.encode(pose, forKey: .pose)
  }

  /// The report of `board` from the markers `detected` and the chessboard corners `charuco`
  /// found in an image (their pixels there, for the report), posed from `ideal` (the same
  /// markers' and corners' pixels undistorted, for the pinhole `intrinsics`) when the camera is
  /// given.
  public init(
    board: MarkerBoard, detected: [DetectedMarker], charuco: [CharucoCorner],
    ideal: (markers: [DetectedMarker], charuco: [CharucoCorner])? = nil, intrinsics k: Pinhole<Double>? = nil
  ) throws(PoseError) {
    let counts = Dictionary(grouping: detected.filter { board.markerCorners(id: $0.id) != nil }, by: \.id)
    markers = counts.filter { $0.value.count == 1 }.keys.sorted()
    charucoCorners = charuco.map { Corner(id: $0.id, pixel: [$0.pixel.x, $0.pixel.y]) }
    pose = nil
    guard let k, let ideal else { return }
    let used = Set(markers)
    var target: [SIMD2<Double>] = [], image: [SIMD2<Double>] = []
    for marker in ideal.markers where used.contains(marker.id) {
      target += board.markerCorners(id: marker.id)!
      image += marker.corners
    }
    let grid = board.chessboardCorners
    for corner in ideal.charuco {
      target.append(grid[corner.id])
      image.append(corner.pixel)
    }
    guard target.count >= 4 else { return }
    pose = try PlanarPose.solve(targetPoints: target, imagePoints: image, intrinsics: k)
  }
}
