import ARImage
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// A marker whose dark region runs on into something dark beside it, as a sign's tag into the
/// pole it stands on or a card's into its shadow: the outline is no longer a quadrilateral, but
/// four of its corners still are the marker's (a real photo of Duckietown's signs at 70° needed
/// this; the AprilTag library found that tag).
@Suite("Markers joined to dark shapes")
struct MarkerTailTests {
  @Test(
    "a tag joined by a short dark bar at its side, seeded: found, every corner within 0.5 px",
    arguments: 0..<6)
  func joined(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(100 + seed))
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    let centre = SIMD2(
      Double.random(in: 200...280, using: &random), Double.random(in: 150...190, using: &random))
    let side = Double.random(in: 60...110, using: &random)
    let turn = Double.random(in: -0.4...0.4, using: &random)
    let corners = (0..<4).map { k -> SIMD2<Double> in
      let a = turn + Double(k) * .pi / 2 - 3 * .pi / 4
      return centre + SIMD2(cos(a), sin(a)) * side / 2 * 1.4142
    }
    var image = try MarkerDetectionTests.frame(
      dictionary, id: 7 + seed, corners: corners, width: 480, height: 360, seed: UInt64(seed))
    // A bar 7 px wide and 0.3 of the marker's side long from inside the bottom border, a third
    // of the way along, down across the quiet zone (longer tails are lost: the outline must
    // follow the quadrilateral over four fifths of its length).
    let start = corners[3] + (corners[2] - corners[3]) * 0.3 + (corners[0] - corners[3]) * 0.04
    let end = start + SIMD2(Double.random(in: -0.1...0.1, using: &random), 0.3) * side
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5), d = end - start
        let t = min(1, max(0, ((p - start) * d).sum() / (d * d).sum()))
        if (p - start - d * t).length < 3.5 { image[x, y] = SIMD4(25, 25, 25, 255) }
      }
    }
    let found = MarkerDetector(dictionary: dictionary).detect(image)
    let marker = try #require(found.first { $0.id == 7 + seed }, "seed \(seed): not found")
    #expect(found.count == 1)
    let worst = zip(marker.corners, corners).map { ($0 - $1).length }.max()!
    #expect(worst < 0.5, "seed \(seed): a corner \(worst) px off")
  }
}
