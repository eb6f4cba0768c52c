import ARMath
import ArgumentParser
import Foundation

/// `arscene project`: world points through a posed camera to pixels.
struct ProjectCommand: ParsableCommand, StreamsStandardInput {
  static let configuration = CommandConfiguration(
    commandName: "project",
    abstract: "Project world points (x y z per line on stdin, metres) to pixels.",
    discussion: """
      Writes one line per input point: `u v depth status`, pixel coordinates (top-left origin, \
      pixel centres at +0.5), depth in metres in front of the camera, and status `inside` or \
      `outside` the image; a point behind the camera gives `nan nan nan behind`. With \
      --distortion or --fisheye the pixel is where that lens puts the point (as \
      cv2.projectPoints and cv2.fisheye.projectPoints do). Blank lines and \
      lines starting with # are skipped. A bad line stops with an error naming it, exit code 2.
      """
  )

  @Option(
    parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels.",
    transform: Pinhole<Double>.init(parsing:))
  var intrinsics: Pinhole<Double>

  @Option(help: "Image size W,H in pixels.", transform: PixelSize.init(parsing:))
  var size: PixelSize

  @Option(
    name: .customLong("world-from-camera"), parsing: .unconditional,
    help: "Camera pose: 16 numbers, column-major.", transform: MatrixValues.init(parsing:))
  var worldFromCamera: MatrixValues

  @Option(help: "Camera frame convention of the pose: arkit (looks down -Z) or opencv (+Z).")
  var convention: CameraConvention = .arkit

  @Option(help: "Decimals in the output (0 to 17).")
  var decimals: Int = 6

  @OptionGroup var lens: LensOptions

  func validate() throws {
    guard (0...17).contains(decimals) else { throw ValidationError("--decimals must be from 0 to 17") }
    guard size.fits(1...(1 << 20)) else {
      throw ValidationError("--size: width and height must be whole numbers from 1 to 1048576")
    }
    _ = try makeCamera()
  }

  func run() throws {
    try reportingInputFailures {
      let camera = try makeCamera()
      let lens = try lens.lens()
      try forEachNumberLine(columns: 3) { p, _ in
        guard let projection = camera.project(SIMD3(p[0], p[1], p[2])) else {
          FileHandleOutput.standardOutput.write("nan nan nan behind\n")
          return
        }
        let pixel = camera.intrinsics.pinhole.distortedPixel(projection.pixel, lens: lens)
        let inside = camera.intrinsics.contains(pixel)
        let columns = [pixel.x, pixel.y, projection.depth].map { fixed($0, decimals) }
        FileHandleOutput.standardOutput.write(
          columns.joined(separator: " ") + (inside ? " inside\n" : " outside\n"))
      }
    }
  }

  /// The posed camera the options give; a pose that is not rigid is a usage error (exit 64),
  /// found by `validate()`.
  private func makeCamera() throws(ValidationError) -> PinholeCamera<Double> {
    let intrinsics = CameraIntrinsics(intrinsics, width: size.width, height: size.height)
    do {
      let pose = try RigidTransform(
        validatingMatrix: Matrix4(validatingColumnMajor: worldFromCamera.columnMajor))
      return PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose, convention: convention)
    } catch { throw ValidationError("--world-from-camera: \(error)") }
  }
}

/// `value` with exactly `decimals` digits after the point (C's `%.*f`), or `nan`.
func fixed(_ value: Double, _ decimals: Int) -> String {
  value.isFinite ? String(format: "%.*f", decimals, value) : "nan"
}
