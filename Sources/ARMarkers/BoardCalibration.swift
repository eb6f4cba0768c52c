import ARImage
import ARMath
import ARPose

/// A camera calibrated from photographs of a ``MarkerBoard``: each image's board markers found,
/// their corners paired with the board's, the views calibrated together
/// (``CameraCalibration``), as OpenCV's `calibrateCameraAruco` does with marker corners.
public enum BoardCalibration {
  /// What `arscene calibrate` prints: `{"intrinsics": [fx, fy, cx, cy], "distortion": [k1, k2,
  /// p1, p2, k3], "rms_px", "image_size": [w, h], "views": [...], "sigma": {"intrinsics",
  /// "distortion"}, "skipped": [...]}`; pixels in ARScene's convention (OpenCV's principal
  /// point is ours minus 0.5), poses `camera_from_board` in OpenCV's camera frame, metres.
  public struct Report: Encodable, Sendable {
    public struct View: Encodable, Sendable {
      public var image: String
      public var markers: Int
      public var points: Int
      public var rmsPixels: Double
      public var rotationXYZW: [Double]
      public var translation: [Double]

      enum CodingKeys: String, CodingKey {
        case image, markers, points, translation
        case rmsPixels = "rms_px"
        case rotationXYZW = "rotation_xyzw"
      }
    }

    public struct Sigma: Encodable, Sendable {
      public var intrinsics: [Double]
      public var distortion: [Double]
    }

    public struct Skipped: Encodable, Sendable {
      public var image: String
      public var reason: String
    }

    public var intrinsics: [Double]
    public var distortion: [Double]
    public var rmsPixels: Double
    public var imageSize: [Int]
    public var views: [View]
    public var sigma: Sigma
    public var skipped: [Skipped]

    enum CodingKeys: String, CodingKey {
      case intrinsics, distortion, views, sigma, skipped
      case rmsPixels = "rms_px"
      case imageSize = "image_size"
    }
  }

  /// One image's markers of `board` as a view: their corners and the board's (nil with fewer
  /// than `minimumMarkers` found).
  public static func view(
    of markers: [DetectedMarker], board: MarkerBoard, minimumMarkers: Int = 2
  ) -> (view: CameraCalibration.View, markers: Int)? {
    var view = CameraCalibration.View(boardPoints: [], imagePoints: [])
    var seen = Set<Int>(), count = 0
    for marker in markers where seen.insert(marker.id).inserted {
      guard let corners = board.markerCorners(id: marker.id), marker.corners.count == 4 else { continue }
      view.boardPoints += corners
      view.imagePoints += marker.corners
      count += 1
    }
    return count >= Swift.max(1, minimumMarkers) ? (view, count) : nil
  }

  /// Calibrates from named images of `board`, `width` × `height` pixels each: the views with at
  /// least `minimumMarkers` markers, the others listed as skipped.
  ///
  /// - Throws: ``PoseError`` when fewer than two images show the board, or the solve fails.
  public static func calibrate(
    images: [(name: String, markers: [DetectedMarker])], board: MarkerBoard, width: Int, height: Int,
    minimumMarkers: Int = 2
  ) throws(PoseError) -> Report {
    var views: [CameraCalibration.View] = [], used: [(name: String, markers: Int)] = []
    var skipped: [Report.Skipped] = []
    for image in images {
      guard let found = view(of: image.markers, board: board, minimumMarkers: minimumMarkers) else {
        let count = Set(image.markers.filter { board.markerCorners(id: $0.id) != nil }.map(\.id)).count
        skipped.append(
          Report.Skipped(
            image: image.name,
            reason: "\(count) of the board's markers found; at least \(minimumMarkers) needed"))
        continue
      }
      views.append(found.view)
      used.append((image.name, found.markers))
    }
    let calibration = try CameraCalibration.calibrate(views: views, width: width, height: height)
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
        ],
        distortion: calibration.distortionSigma),
      skipped: skipped)
  }
}
