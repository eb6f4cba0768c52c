import ARImage
import ARMath
import Foundation
import Testing

@testable import ARMarkers

/// Large markers whose traced outline puts the corners half a cell off: on a real photograph
/// of a tag grid bent over a curve (AprilTag's test_36h11_oblique.jpg, tags of 160-280 px) the
/// outline's corners sat 13-19 px from where the sides' lines meet, the cells read through
/// them decoded nothing, and seven tags AprilTag finds were lost.
@Suite("Large markers from stray outlines")
struct BentTagTests {
  @Test(
    "a 300 px marker read from an outline whose corners stray 12-16 px: its cells read between corners refined onto its edges, within half a pixel",
    arguments: ["apriltag_36h11", "aruco_6x6_250"])
  func strayOutline(name: String) throws {
    let dictionary = try #require(MarkerDictionary.named(name))
    let cell = 300 / (dictionary.size + 2)
    let side = Double(cell * (dictionary.size + 2))
    let grey = GreyImage(
      try EdgeTagTests.frame(
        dictionary, id: 41, left: 60, cell: cell, top: 50, size: (Int(side) + 120, Int(side) + 100)))
    let truth: [SIMD2<Double>] = [[60, 50], [60 + side, 50], [60 + side, 50 + side], [60, 50 + side]]
    // Each corner pushed along one side and across the other, as an arc's outline puts them.
    let outline = zip(truth, [SIMD2(12.0, 9), SIMD2(-9, 13), SIMD2(-14, -8), SIMD2(10, -12)]).map(+)
    let detector = MarkerDetector(dictionary: dictionary)
    let found = try #require(detector.read(outline, in: grey), "\(name): not read")
    #expect(found.id == 41)
    let worst = zip(found.corners, truth).map { ($0 - $1).length }.max()!
    #expect(worst < 0.5, "\(found.corners)")
  }
}
