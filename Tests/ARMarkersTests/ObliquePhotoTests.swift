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
  /// The ids AprilTag 3 finds at its defaults in each photo (its Python bindings, 2026-12-05).
  static let aprilTagGrey =
    [14, 15, 16, 17, 18, 19, 38, 39, 40, 41, 42, 43, 44, 45, 62, 63, 64, 65, 66, 67, 68, 69, 70]
    + [86, 87, 88, 89, 90, 91, 92, 93, 94, 110, 111, 112, 113, 114, 134, 136]
  static let aprilTagColour =
    [14, 15, 16, 17, 18, 19, 38, 39, 40, 41, 42, 43, 44, 45, 62, 63, 64, 65, 66, 67, 68, 69, 70]
    + [86, 87, 88, 89, 90, 91, 93, 95, 110, 111, 112, 113, 114, 134, 136]

  /// Halving the 10 MP photo for its window rules thins the far tags' borders to a pixel or
  /// two, where they break and the outline runs in among the cells: their convex hulls give
  /// 93, 118, 136, 142 and more (43 and 45 found where AprilTag finds 39 and 38).
  @Test(
    "every tag AprilTag 3 finds at its defaults (39; OpenCV 16) and more, every id one the sheet holds, none twice"
  )
  func bentSheet() throws {
    try expectSheet("test_36h11_oblique_greyscale.jpg", atLeast: 43, including: Self.aprilTagGrey)
  }

  /// The colour original: its slivers' tips, acute angles of 10-15°, are rounded off by the
  /// threshold 15-20 px short of where their edges meet. Corners refined onto those edges must
  /// be allowed that far (tag 69 was lost without it).
  @Test(
    "the colour original: every tag AprilTag 3 finds at its defaults (38) and more, the slivers' tips refined"
  )
  func colourOriginal() throws {
    try expectSheet("test_36h11_oblique.jpg", atLeast: 45, including: Self.aprilTagColour)
  }

  /// A fisheye close-up of the same kind of sheet, cropped to its top-right 1280 × 960: tag 163
  /// is a sliver whose tip runs 38 px past the top of the photo, its data cells all inside.
  /// Its corner there is estimated from its sides' lines, as AprilTag's (which finds it too;
  /// OpenCV does not) is.
  @Test("a sliver cut off at its tip by the photo's top edge is read, its tip estimated outside the photo")
  func tipOutside() throws {
    let path = Fixtures.path("markers/apriltag_oblique_photo/test_36h11_close_oblique_fisheye_crop.jpg")
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named("apriltag_36h11")))
    let found = detector.detect(luma: try ImageFile.readLuma(path))
    #expect(found.map(\.id) == [163], "\(found)")
    let marker = try #require(found.first)
    #expect(marker.truncated && marker.hamming == 0)
    // AprilTag 3's corners (its Python bindings, 2026-12-06): at the far end ours agree; at the
    // tip, blurred and curved by the lens, within a cell (10 px across the sliver) of each other.
    let aprilTag: [SIMD2<Double>] = [
      SIMD2(1202.48, 458.28), SIMD2(938.97, 39.89), SIMD2(953.29, -38.02), SIMD2(1200.33, 342.65),
    ]
    let apart = zip(marker.corners, aprilTag).map { ($0 - $1).length }
    #expect(apart[0] < 2 && apart[3] < 2 && apart[1] < 10 && apart[2] < 10, "\(apart)")
    #expect(marker.corners[2].y < 0, "\(marker.corners)")
  }

  private func expectSheet(_ name: String, atLeast count: Int, including ids: [Int]) throws {
    let path = Fixtures.path("markers/apriltag_oblique_photo/" + name)
    let detector = MarkerDetector(dictionary: try #require(MarkerDictionary.named("apriltag_36h11")))
    let found = detector.detect(luma: try ImageFile.readLuma(path))
    #expect(found.count >= count, "\(found.count): \(found.map(\.id))")
    #expect(
      Set(ids).isSubset(of: found.map(\.id)), "missing \(Set(ids).subtracting(found.map(\.id)).sorted())")
    // The sheet's rows of 24 ids hold those 14 to 23 past a multiple of 24: a false id would
    // fall outside them more often than not.
    #expect(found.allSatisfy { (14...23).contains($0.id % 24) }, "\(found.map(\.id))")
    #expect(Set(found.map(\.id)).count == found.count, "\(found.map(\.id))")
  }
}
