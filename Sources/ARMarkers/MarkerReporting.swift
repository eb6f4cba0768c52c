import ARImage
import ARMath
import ARPose

/// What `arscene marker detect` reports about an image beyond the markers found, and the report
/// itself: each marker's pose for a marker side, a rig's pose, a board's corners and pose,
/// ChArUco diamonds. Corners are reported where they are in the image; poses are solved from
/// where a pinhole camera would see them, the lens taken out first.
public struct MarkerReporting: Sendable {
  /// The camera the image was taken with; without it nothing is posed.
  public var camera: Pinhole<Double>?
  /// The camera's lens (none: a pinhole, or an undistorted image).
  public var lens: LensDistortion = .none
  /// The markers' side, metres (the black square's): each marker is posed with it (needs
  /// ``camera``).
  public var markerSide: Double?
  /// An object carrying several markers, posed from all of them it sees (needs ``camera``).
  public var rig: MarkerRig?
  /// A board: its markers and ChArUco corners are reported, and posed with ``camera``.
  public var board: MarkerBoard?
  /// ChArUco diamonds to look for, by the ratio of their square's side to their markers'.
  public var diamondRatio: Double?

  /// Reporting of the markers alone: nothing posed, no rig, board or diamonds.
  public init() {}

  /// Why an image's report cannot be made.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A corner (named) lies past the lens model's image circle: it has no pinhole place.
    case outsideLens(String)
    /// A pose could not be solved.
    case pose(PoseError)
    /// Poses were asked for, and nothing gives the camera (no intrinsics).
    case noCamera

    public var description: String {
      switch self {
      case .outsideLens(let corner): "\(corner) lies past the lens model's image circle"
      case .pose(let error): error.description
      case .noCamera: "no intrinsics to pose its markers with"
      }
    }
  }

  /// The report of the markers `found` in `picture` (a ``MarkerDetector``'s, for the image);
  /// the picture is needed only for a board's or diamonds' corners (none without it).
  public func report(_ found: [DetectedMarker], in picture: RGBA8Image?) throws(Failure) -> MarkerReport {
    var report = MarkerReport(found)
    if let diamondRatio, let picture {
      report.diamonds = CharucoDiamond.find(in: picture, markers: found, squareToMarker: diamondRatio)
        .map(MarkerReport.Diamond.init)
    }
    let charuco = picture.flatMap { board?.charucoCorners(in: $0, markers: found) } ?? []
    if let board {
      report.board = try posed { () throws(PoseError) in
        try MarkerBoardReport(board: board, detected: found, charuco: charuco)
      }
    }
    guard let camera else { return report }
    let ideal = try found.map { marker throws(Failure) in
      var marker = marker
      marker.corners = try pinholePixels(marker.corners, camera) { "marker \(marker.id): corner \($0)" }
      return marker
    }
    if let markerSide {
      for (i, marker) in ideal.enumerated() {
        report.markers[i].pose = try posed { () throws(PoseError) in
          try SquareMarker.pose(
            corners: marker.corners, size: markerSide, intrinsics: camera, pixelSigma: marker.poseSigma)
        }
      }
    }
    if let rig {
      report.rig = try posed { () throws(PoseError) in
        try MarkerRigReport(rig: rig, detected: ideal, intrinsics: camera)
      }
    }
    if let board {
      let idealCharuco = try charuco.map { corner throws(Failure) in
        let pixel = try pinholePixels([corner.pixel], camera) { _ in "chessboard corner \(corner.id)" }
        return CharucoCorner(id: corner.id, pixel: pixel[0])
      }
      report.board = try posed { () throws(PoseError) in
        try MarkerBoardReport(
          board: board, detected: found, charuco: charuco, ideal: (ideal, idealCharuco), intrinsics: camera)
      }
    }
    return report
  }

  /// `solve`'s answer, its error a ``Failure``.
  private func posed<Value>(_ solve: () throws(PoseError) -> Value) throws(Failure) -> Value {
    do { return try solve() } catch { throw .pose(error) }
  }

  /// Where a pinhole camera would see `pixels` that ``lens`` shows; `name(i)` names pixel i for
  /// the error.
  private func pinholePixels(
    _ pixels: [SIMD2<Double>], _ camera: Pinhole<Double>, name: (Int) -> String
  ) throws(Failure) -> [SIMD2<Double>] {
    try pixels.enumerated().map { (i, pixel) throws(Failure) in
      guard let ideal = camera.undistortedPixel(pixel, lens: lens) else { throw .outsideLens(name(i)) }
      return ideal
    }
  }
}
