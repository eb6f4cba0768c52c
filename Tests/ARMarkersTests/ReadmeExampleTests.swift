import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Testing

/// The example of ARMarkers' Getting Started article (ARMarkers.docc), kept compiling and correct.
@Test("ARMarkers getting-started example")
func readmeMarkersExample() throws {
  let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
  let printable = try dictionary.image(id: 143, pixels: 400)
  #expect(printable.width == 400)
  let frame = try ImageFile.readRGBA8(Fixtures.path("markers/aruco_6x6_250/frame03.jpg"))
  let found = MarkerDetector(dictionary: dictionary).detect(frame)
  let marker = try #require(found.first)
  #expect(marker.id == 143)
  let truth: [SIMD2<Double>] = [
    [321.065, 219.617], [351.005, 248.313], [320.416, 276.908], [290.399, 247.100],
  ]
  #expect(zip(marker.corners, truth).allSatisfy { ($0 - $1).length < 0.1 })
  let pose = try SquareMarker.pose(
    corners: marker.corners, size: 0.05, intrinsics: Pinhole(fx: 540, fy: 540, cx: 321.5, cy: 238.5),
    pixelSigma: marker.poseSigma)
  #expect(abs(pose.solutions[0].translation.z - 0.63) < 0.01)
}
