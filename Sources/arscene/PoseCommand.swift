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
        FileHandleOutput.standardOutput.write(json(result) + "\n")
      }
    }

    private func json(_ result: MarkerPose) -> String {
      func number(_ x: Double) -> String { "\(x)" }
      // The ARKit camera is the OpenCV one turned by π about x: camera_arkit = F·camera_opencv.
      let flip = Matrix3<Double>(diagonal: convention == .arkit ? SIMD3(1, -1, -1) : SIMD3(1, 1, 1))
      let solutions = result.solutions.map { s -> String in
        let r = flip * s.rotation, t = flip * s.translation
        let rows = (0..<3).map { i in "[\(number(r[0, i])),\(number(r[1, i])),\(number(r[2, i]))]" }.joined(
          separator: ",")
        let rs = s.rotationSigma, ts = s.translationSigma
        return
          "{\"rotation\":[\(rows)],\"translation\":[\(number(t.x)),\(number(t.y)),\(number(t.z))],"
          + "\"reprojection_error_px\":\(number(s.reprojectionError)),"
          + "\"rotation_sigma_rad\":[\(number(rs.x)),\(number(rs.y)),\(number(rs.z))],"
          + "\"translation_sigma_m\":[\(number(ts.x)),\(number(ts.y)),\(number(ts.z))]}"
      }
      return "{\"solutions\":[\(solutions.joined(separator: ","))],\"ambiguous\":\(result.ambiguous)}"
    }
  }
}
