import ARMath
import ArgumentParser

/// `--distortion` and `--fisheye`: the lens's OpenCV distortion coefficients, for commands that
/// take a camera.
struct LensOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Lens distortion K1,K2,P1,P2[,K3[,K4,K5,K6]]: OpenCV's radial-tangential (rational) model.",
      valueName: "coefficients"))
  var distortion: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Fisheye lens K1,K2,K3,K4: OpenCV's Kannala-Brandt model.", valueName: "coefficients"))
  var fisheye: String?

  func validate() throws {
    guard distortion == nil || fisheye == nil else {
      throw ValidationError("--distortion and --fisheye: give one lens model, not both")
    }
    _ = try lens()
  }

  /// The lens the options give (a pinhole without them).
  func lens() throws -> LensDistortion {
    do {
      if let distortion {
        return try LensDistortion(opencv: try NumberList.parse(distortion, count: nil))
      }
      if let fisheye {
        return try LensDistortion(opencv: try NumberList.parse(fisheye, count: nil), fisheye: true)
      }
    } catch {
      throw ValidationError("--\(distortion != nil ? "distortion" : "fisheye"): \(error)")
    }
    return .none
  }

  /// `points` (pixels seen through the lens of the camera `k`) where
  /// the ideal pinhole would see them; `name(i)` says which point, for the error when one lies
  /// past the lens model's image circle.
  static func undistorted(
    _ points: [SIMD2<Double>], lens: LensDistortion, intrinsics k: Pinhole<Double>, name: (Int) -> String
  ) throws(InputFailure) -> [SIMD2<Double>] {
    try points.enumerated().map { (i, point) throws(InputFailure) in
      guard let p = k.undistortedPixel(point, lens: lens) else {
        throw InputFailure(message: "\(name(i)) lies past the lens model's image circle")
      }
      return p
    }
  }
}
