import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `arscene marker generate`: a printable marker, and its errors.
@Suite("arscene marker")
struct MarkerCommandTests {
  @Test(
    "a 4x4 marker with its quiet zone: 8 cells across, whole cells at 80 px, the border black, the zone white"
  )
  func generate() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/marker.png"
    let outcome = try ArsceneRunner.run([
      "marker", "generate", "--dictionary", "aruco_4x4_50", "--id", "7", "--pixels", "80", "-o", path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(path)
    #expect(image.width == 80 && image.height == 80)
    #expect(image[5, 5].x == 255 && image[15, 15].x == 0 && image[64, 64].x == 0 && image[75, 40].x == 255)
    #expect(image.pixels.allSatisfy { $0.x == 0 || $0.x == 255 })
  }

  @Test(
    "an unknown dictionary or an id outside it is an error naming it, exit 2, nothing written",
    arguments: [
      (["--dictionary", "aruco_9x9_1", "--id", "0"], "unknown 'aruco_9x9_1'"),
      (["--dictionary", "apriltag_36h11", "--id", "587"], "apriltag_36h11 has ids 0 to 586, not 587"),
    ])
  func errors(_ options: [String], _ message: String) throws {
    let folder = try TemporaryFolder()
    let outcome = try ArsceneRunner.run(
      ["marker", "generate"] + options + ["--pixels", "100", "-o", folder.path + "/m.png"])
    #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/m.png"))
  }
}
