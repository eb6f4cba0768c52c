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
    try expectSheet("test_36h11_oblique_greyscale.jpg", atLeast: 39)
  }

  /// The colour original: its slivers' tips, acute angles of 10-15°, are rounded off by the
  /// threshold 15-20 px short of where their edges meet. Corners refined onto those edges must
  /// be allowed that far (tag 69 was lost without it).
  @Test(
    "the colour original: as many tags as AprilTag 3 finds at its defaults (38), the slivers' tips refined")
  func colourOriginal() throws {
    try expectSheet("test_36h11_oblique.jpg", atLeast: 38)
  }

  private func expectSheet(_ name: String, atLeast count: Int) throws {
    let path = Fixtures.path("markers/apriltag_oblique_photo/" + name)
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named("apriltag_36h11")))
    let found = detector.detect(luma: try ImageFile.readLuma(path))
    #expect(found.count >= count, "\(found.count): \(found.map(\.id))")
    // The sheet's rows of 24 ids hold those 14 to 23 past a multiple of 24: a false id would
    // fall outside them more often than not.
    #expect(found.allSatisfy { (14...23).contains($0.id % 24) }, "\(found.map(\.id))")
    #expect(Set(found.map(\.id)).count == found.count, "\(found.map(\.id))")
  }
}
