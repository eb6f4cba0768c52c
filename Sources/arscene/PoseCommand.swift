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
        --corner-sigma pixels of corner noise.
        """)

    @Option(help: "Marker side length in metres.")
    var size: Double

    @Option(parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels.")
    var intrinsics: String

    @Option(parsing: .unconditional, help: "Corners X0,Y0,X1,Y1,X2,Y2,X3,Y3 in pixels.")
    var corners: String

    @Option(help: "Camera convention of the output: opencv or arkit.")
    var convention: CameraConvention = .opencv

    @Option(help: "Image size W,H; corners outside it are refused.")
    var imageSize: String?

    @Option(help: "1-σ corner noise in pixels, for the uncertainties.")
    var cornerSigma: Double = 0.5

    func run() throws {
      try reportingInputFailures {
        let k = try numbers(intrinsics, count: 4, option: "--intrinsics")
        let c = try numbers(corners, count: 8, option: "--corners")
        let image = try imageSize.map { try numbers($0, count: 2, option: "--image-size") }
        guard cornerSigma > 0, cornerSigma.isFinite else {
          throw InputFailure(message: "--corner-sigma must be positive")
        }
        let result: MarkerPose
        do {
          result = try SquareMarker.pose(
            corners: (0..<4).map { SIMD2(c[2 * $0], c[2 * $0 + 1]) }, size: size,
            intrinsics: SIMD4(k[0], k[1], k[2], k[3]),
            imageSize: image.map { SIMD2($0[0], $0[1]) }, pixelSigma: cornerSigma)
        } catch { throw InputFailure(message: "\(error)") }
        try JSONOutput.write(result.expressed(in: convention))
      }
    }
  }
}
