import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Testing

/// The report `arscene marker detect` prints, made by the library: markers posed through the
/// camera, corners where the image shows them, a lens taken out before posing.
@Suite("Marker reports")
struct MarkerReportingTests {
  @Test("rendered card frames: each marker posed within 2% of its true distance, corners as detected")
  func posedFromRenderedFrames() throws {
    let set = try RenderedCardTests.CardFrames("aruco_6x6_250")
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named(set.dictionary)))
    var reporting = MarkerReporting()
    (reporting.camera, reporting.markerSide) = (set.k, set.markerSize)
    var posed = 0
    for (frame, path) in zip(set.frames, set.paths).prefix(8) {
      let picture = try ImageFile.readRGBA8(path)
      let found = detector.detect(picture)
      let report = try reporting.report(found, in: picture)
      #expect(report.markers.map(\.corners) == found.map { $0.corners.map { [$0.x, $0.y] } })
      for marker in report.markers where marker.id == frame.id {
        let best = try #require(marker.pose?.solutions.first)
        let truth = frame.cameraFromMarker.translation
        #expect((best.translation - truth).length < 0.02 * truth.length, "\(frame.image)")
        posed += 1
      }
    }
    #expect(posed >= 6)
  }

  @Test("without a camera nothing is posed; a corner past a fisheye's image circle is named")
  func unposedAndOutsideTheLens() throws {
    let set = try RenderedCardTests.CardFrames("aruco_6x6_250")
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named(set.dictionary)))
    let picture = try ImageFile.readRGBA8(set.paths[0])
    let found = detector.detect(picture)
    try #require(!found.isEmpty)
    let plain = try MarkerReporting().report(found, in: picture)
    #expect(plain.markers.allSatisfy { $0.pose == nil } && plain.rig == nil && plain.board == nil)
    // A fisheye whose image circle (θ ≤ 90°) ends well inside the frame: a 20 px focal length.
    var reporting = MarkerReporting()
    reporting.camera = Pinhole(fx: 20, fy: 20, cx: 1, cy: 1)
    reporting.lens = try LensDistortion(opencv: [0, 0, 0, 0], fisheye: true)
    reporting.markerSide = set.markerSize
    let failure = #expect(throws: MarkerReporting.Failure.self) { try reporting.report(found, in: picture) }
    #expect(failure == .outsideLens("marker \(found[0].id): corner 0"))
  }
}
