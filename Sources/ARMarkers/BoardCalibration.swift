import ARImage
import ARMath
import ARPose

/// A camera calibrated from photographs of a ``MarkerBoard``: each image's board markers found,
/// their corners (a grid board's, as OpenCV's `calibrateCameraAruco` uses) or the chessboard
/// corners they locate (a ChArUco board's, as `calibrateCameraCharuco` uses) paired with the
/// board's, and the views calibrated together (ARPose's `CameraCalibration`).
public enum BoardCalibration {
  /// What `arscene calibrate` prints: `{"intrinsics": [fx, fy, cx, cy], "distortion": [k1, k2,
  /// p1, p2, k3], "rms_px", "image_size": [w, h], "views": [...], "sigma": {"intrinsics",
  /// "distortion", "undetermined"}, "fixed": {...}, "skipped": [...]}`; pixels in ARScene's convention (OpenCV's principal
  /// point is ours minus 0.5), poses `camera_from_board` in OpenCV's camera frame, metres.
  public struct Report: Encodable, Sendable {
    /// One photograph used: `{"image", "markers", "points", "rms_px", "rotation_xyzw", "translation"}`.
    public struct View: Encodable, Sendable {
      /// The photograph's path, as given.
      public var image: String
      /// The board's markers found in it.
      public var markers: Int
      /// The points it adds to the calibration (marker or chessboard corners).
      public var points: Int
      /// Its root-mean-square reprojection error, pixels (`rms_px`).
      public var rmsPixels: Double
      /// `camera_from_board`'s rotation, a unit quaternion `[x, y, z, w]`.
      public var rotationXYZW: [Double]
      /// `camera_from_board`'s translation, metres, OpenCV's camera frame.
      public var translation: [Double]

      enum CodingKeys: String, CodingKey {
        case image, markers, points, translation
        case rmsPixels = "rms_px"
        case rotationXYZW = "rotation_xyzw"
      }
    }

    /// The 1-σ uncertainties of the calibrated values, from the solution's covariance.
    public struct Sigma: Encodable, Sendable {
      /// Of fx, fy, cx, cy, pixels; nil (JSON null) where the views do not determine it (their
      /// normal matrix is singular: too few views, or all at one angle).
      public var intrinsics: [Double?]
      /// Of k1, k2, p1, p2, k3; nil where not determined.
      public var distortion: [Double?]
      /// Why each null is null, by parameter name (`fx` … `k3`): held (a `CalibrationConstraint`),
      /// or the views' information matrix is singular.
      public var undetermined: [String: String] = [:]
    }

    /// A photograph left out, and why.
    public struct Skipped: Encodable, Sendable {
      /// The photograph's path, as given.
      public var image: String
      /// Why it was left out (too few markers or corners found).
      public var reason: String
    }

    /// `[fx, fy, cx, cy]`, pixels, ARScene's pixel convention.
    public var intrinsics: [Double]
    /// OpenCV's `[k1, k2, p1, p2, k3]`.
    public var distortion: [Double]
    /// The root-mean-square reprojection error over every view, pixels (`rms_px`).
    public var rmsPixels: Double
    /// `[width, height]` of the photographs, pixels.
    public var imageSize: [Int]
    /// The photographs used, in the order given.
    public var views: [View]
    /// The calibration's 1-σ uncertainties.
    public var sigma: Sigma
    /// The photographs left out.
    public var skipped: [Skipped]
    /// The parameters held instead of estimated (`fix_k3`, `fix_principal_point`,
    /// `fix_aspect_ratio`), each with why: asked for, or the views did not determine the camera
    /// without it.
    public var fixed: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
      case intrinsics, distortion, views, sigma, skipped, fixed
      case rmsPixels = "rms_px"
      case imageSize = "image_size"
    }
  }

  /// What one photograph shows of a board: the markers found (as a count) and the view they
  /// give: the markers' corners for a grid board, the chessboard corners for a ChArUco board
  /// (as OpenCV's `calibrateCameraCharuco` uses them); nil when fewer than `minimumMarkers`
  /// markers (or, on a ChArUco board, fewer than 4 chessboard corners) are found.
  public struct Sighting: Sendable {
    /// The board's markers found in the photograph.
    public var markers: Int
    /// The board and image points it gives; nil when too few were found.
    public var view: CameraCalibration.View?
  }

  /// `board` in `image`, from the `markers` found there.
  public static func sighting(
    of board: MarkerBoard, in image: RGBA8Image, markers: [DetectedMarker], minimumMarkers: Int = 2
  ) -> Sighting {
    var view = CameraCalibration.View(boardPoints: [], imagePoints: [])
    var seen = Set<Int>()
    for marker in markers where seen.insert(marker.id).inserted {
      guard let corners = board.markerCorners(id: marker.id), marker.corners.count == 4 else {
        seen.remove(marker.id)
        continue
      }
      view.boardPoints += corners
      view.imagePoints += marker.corners
    }
    guard seen.count >= Swift.max(1, minimumMarkers) else { return Sighting(markers: seen.count, view: nil) }
    if case .charuco = board.layout {
      let corners = board.charucoCorners(in: image, markers: markers)
      guard corners.count >= 4 else { return Sighting(markers: seen.count, view: nil) }
      view = CameraCalibration.View(
        boardPoints: corners.map { [grid = board.chessboardCorners] in grid[$0.id] },
        imagePoints: corners.map(\.pixel))
    }
    return Sighting(markers: seen.count, view: view)
  }

  /// `chessboard` in `image`: all its inner corners, or no view.
  public static func sighting(of chessboard: Chessboard, in image: RGBA8Image) -> Sighting {
    guard let found = chessboard.find(in: image) else { return Sighting(markers: 0, view: nil) }
    return Sighting(
      markers: 0, view: CameraCalibration.View(boardPoints: chessboard.corners, imagePoints: found))
  }

  /// Calibrates from named sightings of `board` in images `width` × `height` pixels: those with
  /// a view, the others listed as skipped.
  ///
  /// - Throws: `PoseError` when fewer than two images show the board, or no camera within
  ///   bounds fits them.
  public static func calibrate(
    _ sightings: [(name: String, sighting: Sighting)], board: MarkerBoard, width: Int, height: Int,
    minimumMarkers: Int = 2, fixing: Set<CalibrationConstraint> = [], automatic: Bool = true
  ) throws(PoseError) -> Report {
    try calibrate(sightings, width: width, height: height, fixing: fixing, automatic: automatic) { sighting in
      "\(sighting.markers) of the board's markers found; at least \(minimumMarkers) needed"
        + (board.chessboardCorners.isEmpty ? "" : ", with 4 chessboard corners")
    }
  }

  /// Calibrates from named sightings of `chessboard` in images `width` × `height` pixels.
  ///
  /// - Throws: `PoseError` when fewer than two images show the board, or no camera within
  ///   bounds fits them.
  public static func calibrate(
    _ sightings: [(name: String, sighting: Sighting)], chessboard: Chessboard, width: Int, height: Int,
    fixing: Set<CalibrationConstraint> = [], automatic: Bool = true
  ) throws(PoseError) -> Report {
    try calibrate(sightings, width: width, height: height, fixing: fixing, automatic: automatic) { _ in
      "the \(chessboard.columns)×\(chessboard.rows) inner corners were not all found"
    }
  }

  /// Calibrates from the sightings with a view; the others are listed as skipped, for the
  /// reason `skipped` gives.
  private static func calibrate(
    _ sightings: [(name: String, sighting: Sighting)], width: Int, height: Int,
    fixing: Set<CalibrationConstraint>, automatic: Bool, skipped reason: (Sighting) -> String
  ) throws(PoseError) -> Report {
    var views: [CameraCalibration.View] = [], used: [(name: String, markers: Int)] = []
    var skipped: [Report.Skipped] = []
    for (name, sighting) in sightings {
      guard let view = sighting.view else {
        skipped.append(Report.Skipped(image: name, reason: reason(sighting)))
        continue
      }
      views.append(view)
      used.append((name, sighting.markers))
    }
    let calibration = try CameraCalibration.calibrate(
      views: views, width: width, height: height, fixing: fixing, automatic: automatic)
    let k = calibration.intrinsics
    return Report(
      intrinsics: [k.fx, k.fy, k.cx, k.cy], distortion: calibration.lens.opencvCoefficients.values,
      rmsPixels: calibration.rmsPixels, imageSize: [width, height],
      views: zip(zip(used, views), calibration.views).map { pair, solved in
        let q = solved.cameraFromBoard.rotation.vector, t = solved.cameraFromBoard.translation
        return Report.View(
          image: pair.0.name, markers: pair.0.markers, points: pair.1.boardPoints.count,
          rmsPixels: solved.rmsPixels, rotationXYZW: [q.x, q.y, q.z, q.w], translation: [t.x, t.y, t.z])
      },
      sigma: Report.Sigma(
        intrinsics: [
          calibration.intrinsicsSigma.x, calibration.intrinsicsSigma.y, calibration.intrinsicsSigma.z,
          calibration.intrinsicsSigma.w,
        ].map { $0.isFinite ? $0 : nil },
        distortion: calibration.distortionSigma.map { $0.isFinite ? $0 : nil },
        undetermined: calibration.undetermined),
      skipped: skipped,
      fixed: Dictionary(uniqueKeysWithValues: calibration.fixed.map { ($0.key.rawValue, $0.value) }))
  }
}
