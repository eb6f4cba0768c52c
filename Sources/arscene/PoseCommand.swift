import ARMath
import ARPose
import ArgumentParser
import Foundation

/// `arscene pose`: the pose of a square marker from its corners.
struct PoseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pose",
    abstract: "Pose estimation from image points.",
    subcommands: [Marker.self]
  )

  struct Marker: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Both poses of a square marker from its four corners (IPPE, refined).",
      discussion: """
        Corners in OpenCV's IPPE_SQUARE order: top-left, top-right, bottom-right, bottom-left, the \
        marker's points (-s/2, s/2, 0), (s/2, s/2, 0), (s/2, -s/2, 0), (-s/2, -s/2, 0). Prints JSON \
        {"solutions":[{"rotation":[[…],[…],[…]],"translation":[tx,ty,tz],"reprojection_error_px":e, \
        "rotation_sigma_rad":[…],"translation_sigma_m":[…]}, …],"ambiguous":bool}, best first: the \
        marker-to-camera transform (a marker point X is at R·X + t in the camera), OpenCV camera \
        convention (x right, y down, looking down +Z) unless --convention arkit. The sigmas assume \
        --corner-sigma pixels of corner noise. With --distortion or --fisheye the corners are \
        undistorted first (the lens's exact inverse).
        """)

    @Option(help: "Marker side length in metres.")
    var size: Double

    @Option(
      parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels.",
      transform: Pinhole<Double>.init(parsing:))
    var intrinsics: Pinhole<Double>

    @Option(
      parsing: .unconditional, help: "Corners X0,Y0,X1,Y1,X2,Y2,X3,Y3 in pixels.",
      transform: MarkerCorners.init(parsing:))
    var corners: MarkerCorners

    @Option(help: "Camera convention of the output: opencv or arkit.")
    var convention: CameraConvention = .opencv

    @Option(help: "Image size W,H; corners outside it are refused.", transform: NumberPair.init(parsing:))
    var imageSize: NumberPair?

    @Option(help: "1-σ corner noise in pixels, for the uncertainties.")
    var cornerSigma: Double = 0.5

    @OptionGroup var lens: LensOptions

    func validate() throws {
      guard cornerSigma > 0, cornerSigma.isFinite else {
        throw ValidationError("--corner-sigma must be positive")
      }
      guard size > 0, size.isFinite else { throw ValidationError("--size: expected metres > 0, got \(size)") }
    }

    func run() throws {
      try reportingInputFailures {
        let k = intrinsics
        // Posed from where a pinhole camera would see the corners: the lens taken out first.
        let ideal = try LensOptions.undistorted(
          corners.points, lens: try lens.lens(), intrinsics: k
        ) { "--corners: corner \($0)" }
        let result: MarkerPose
        do {
          result = try SquareMarker.pose(
            corners: ideal, size: size, intrinsics: k,
            imageSize: imageSize?.vector, pixelSigma: cornerSigma)
        } catch { throw InputFailure(message: "\(error)") }
        try JSONOutput.write(result.expressed(in: convention))
      }
    }
  }
}
