import ARMath
import ArgumentParser
import Foundation

/// `arscene undistort`: pixels of a distorting lens to the ideal pinhole camera's.
struct UndistortCommand: ParsableCommand, StreamsStandardInput {
  static let configuration = CommandConfiguration(
    commandName: "undistort",
    abstract: "Map pixels (u v per line on stdin) of a distorting lens to the ideal pinhole camera's.",
    discussion: """
      Writes one line per input pixel: `u v`, where a pinhole camera with the same intrinsics \
      shows what the lens shows at the input pixel (ARScene's pixel convention: top-left origin, \
      pixel centres at +0.5), exactly: the lens model inverted to the last bits, as \
      cv2.undistortPointsIter run to convergence or cv2.fisheye.undistortPoints with P = K \
      (cv2.undistortPoints itself stops after five iterations). A pixel with no inverse (past a \
      fisheye's image circle) gives `nan nan`. Blank lines and lines starting with # are \
      skipped; a bad line stops with an error naming it, exit code 2.
      """
  )

  @Option(
    parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels.",
    transform: Pinhole<Double>.init(parsing:))
  var intrinsics: Pinhole<Double>

  @OptionGroup var lens: LensOptions

  @Option(help: "Decimals in the output (0 to 17).")
  var decimals: Int = 6

  func validate() throws {
    guard (0...17).contains(decimals) else { throw ValidationError("--decimals must be from 0 to 17") }
    guard lens.distortion != nil || lens.fisheye != nil else {
      throw ValidationError(
        "give the lens: --distortion K1,K2,P1,P2[,K3[,K4,K5,K6]] or --fisheye K1,K2,K3,K4")
    }
  }

  func run() throws {
    try reportingInputFailures {
      let lens = try lens.lens()
      try forEachNumberLine(columns: 2) { p, _ in
        let ideal = intrinsics.undistortedPixel(SIMD2(p[0], p[1]), lens: lens)
        let columns = [ideal?.x ?? .nan, ideal?.y ?? .nan].map { fixed($0, decimals) }
        FileHandleOutput.standardOutput.write(columns.joined(separator: " ") + "\n")
      }
    }
  }
}
