import ARImage
import ARImageIO
import ARMarkers
import ARTestSupport
import Testing

/// A real photograph of a sheet of 36h11 tags bent over a curve and seen at a steep angle
/// (Tests/Fixtures/markers/apriltag_oblique_photo): large tags whose outlines stray from their
/// arcs' lines, and slivers at the far side.
@Suite("A bent tag sheet seen obliquely")
struct ObliquePhotoTests {
  @Test(
    "as many tags as AprilTag 3 finds at its defaults (39; OpenCV 16), every id one the sheet holds, none twice"
  )
  func bentSheet() throws {
    let path = Fixtures.path("markers/apriltag_oblique_photo/test_36h11_oblique_greyscale.jpg")
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named("apriltag_36h11")))
    let found = detector.detect(luma: try ImageFile.readLuma(path))
    #expect(found.count >= 39, "\(found.count): \(found.map(\.id))")
    // The sheet's rows of 24 ids hold those 14 to 23 past a multiple of 24: a false id would
    // fall outside them more often than not.
    #expect(found.allSatisfy { (14...23).contains($0.id % 24) }, "\(found.map(\.id))")
    #expect(Set(found.map(\.id)).count == found.count, "\(found.map(\.id))")
  }
}
