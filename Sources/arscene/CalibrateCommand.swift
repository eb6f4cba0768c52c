import ARImage
import ARImageIO
import ARMarkers
import ARPose
import ArgumentParser
import Foundation

/// `arscene calibrate`: a camera's intrinsics and lens from photographs of a marker board.
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Estimate a camera's intrinsics and lens distortion from photographs of a marker board.",
    discussion: """
      Finds the board's markers (or a plain chessboard's inner corners) in each image, pairs \
      their corners with the board's, and \
      calibrates all views together: Zhang's initialisation, then Levenberg-Marquardt over the \
      focal lengths, principal point, OpenCV's five distortion coefficients k1,k2,p1,p2,k3 and \
      every view's pose, on the reprojection error (as OpenCV's calibrateCamera on the same \
      corners). Prints JSON: {"intrinsics": [fx, fy, cx, cy], "distortion": [...], "rms_px", \
      "image_size", "views": [{"image", "markers", "points", "rms_px", "rotation_xyzw", \
      "translation"}], "sigma": {"intrinsics", "distortion"}, "skipped"}, pixels in ARScene's \
      convention (pixel centres at +0.5: OpenCV's principal point is ours minus 0.5), view \
      poses camera_from_board in OpenCV's camera frame (board x right, y down), metres. \
      Images with fewer than --min-markers of the board's markers are skipped and listed. \
      Parameters the views do not determine (a focal length's sigma over a tenth of it, the \
      principal point's over an eighth of the image, a singular information matrix, or a camera \
      out of bounds) are held in turn, k3 first, then the principal point, then the aspect \
      ratio, and listed under "fixed" with why; a sigma is null where it is not determined, \
      "sigma.undetermined" saying why.
      """
  )

  @Option(
    help: ArgumentHelp(
      "The board: grid:COLSxROWS:MARKER:SEPARATION:DICTIONARY (OpenCV's GridBoard), charuco:COLSxROWS:SQUARE:MARKER:DICTIONARY[:legacy] (its chessboard corners, found through its markers; legacy for OpenCV's pattern before 4.6, whose top-left square is white when the rows are even) or chessboard:COLSxROWS:SQUARE (a plain chessboard, COLSxROWS its inner corners as OpenCV's pattern size counts them, every one seen), lengths in metres.",
      valueName: "spec"))
  var board: String

  @Option(help: "The fewest board markers an image must show to be used.") var minMarkers = 2

  @Flag(help: "Hold k3 at 0 (OpenCV's CALIB_FIX_K3).") var fixK3 = false
  @Flag(help: "Hold the principal point at the image's centre (CALIB_FIX_PRINCIPAL_POINT).")
  var fixPrincipalPoint = false
  @Flag(help: "Hold fy equal to fx: square pixels (CALIB_FIX_ASPECT_RATIO).") var fixAspectRatio = false
  @Flag(
    help:
      "Estimate every parameter not held by a --fix option even when the views leave it undetermined (by default k3, then the principal point, then the aspect ratio are held until they do not)."
  )
  var noAutomaticFixing = false

  /// The parameters the options hold.
  var fixing: Set<CalibrationConstraint> {
    var fixing = Set<CalibrationConstraint>()
    if fixK3 { fixing.insert(.fixK3) }
    if fixPrincipalPoint { fixing.insert(.fixPrincipalPoint) }
    if fixAspectRatio { fixing.insert(.fixAspectRatio) }
    return fixing
  }

  @Argument(help: "The photographs (PNG, JPEG or WebP), all of one size.") var images: [String]

  /// What the photographs show: a marker board or a plain chessboard.
  enum Target {
    case markers(MarkerBoard)
    case chessboard(Chessboard)

    init(specification: String) throws(MarkerBoardError) {
      self =
        specification.hasPrefix("chessboard:")
        ? .chessboard(try Chessboard(specification: specification))
        : .markers(try MarkerBoard(specification: specification))
    }
  }

  func validate() throws {
    do { _ = try Target(specification: board) } catch { throw ValidationError("--board: \(error)") }
    guard (1...10_000).contains(minMarkers) else {
      throw ValidationError("--min-markers: expected 1 to 10000")
    }
    guard images.count >= 2 else { throw ValidationError("give at least two photographs of the board") }
  }

  func run() throws {
    try reportingInputFailures {
      let target = try Target(specification: board)
      var found: [(name: String, sighting: BoardCalibration.Sighting)] = []
      var size: (width: Int, height: Int, image: String)?
      for path in images {
        let picture: RGBA8Image
        do { picture = try ImageFile.readRGBA8(path) } catch { throw InputFailure(error) }
        if let size, size.width != picture.width || size.height != picture.height {
          throw InputFailure(
            message:
              "\(path): \(picture.width)×\(picture.height), but \(size.image) is \(size.width)×\(size.height); calibrate one camera mode at a time"
          )
        }
        size = size ?? (picture.width, picture.height, path)
        switch target {
        case .markers(let board):
          let markers = MarkerDetector(dictionary: board.dictionary).detect(picture)
          found.append(
            (
              path,
              BoardCalibration.sighting(of: board, in: picture, markers: markers, minimumMarkers: minMarkers)
            ))
        case .chessboard(let chessboard):
          found.append((path, BoardCalibration.sighting(of: chessboard, in: picture)))
        }
      }
      let report: BoardCalibration.Report
      do {
        switch target {
        case .markers(let board):
          report = try BoardCalibration.calibrate(
            found, board: board, width: size!.width, height: size!.height, minimumMarkers: minMarkers,
            fixing: fixing, automatic: !noAutomaticFixing)
        case .chessboard(let chessboard):
          report = try BoardCalibration.calibrate(
            found, chessboard: chessboard, width: size!.width, height: size!.height, fixing: fixing,
            automatic: !noAutomaticFixing)
        }
      } catch { throw InputFailure(message: "\(error)") }
      try JSONOutput.write(report)
    }
  }
}
