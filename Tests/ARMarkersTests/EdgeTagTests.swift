import ARImage
import ARMarkers
import ARMath
import Foundation
import Testing

/// Markers at the image's edge (issue 72): read when every data cell is inside, their corners
/// there said to be estimated (`truncated`); never when a data cell is cut off.
@Suite("Markers cut by the image's edge")
struct EdgeTagTests {
  /// `dictionary`'s marker `id` at `cell` px a cell (12 by default) in a light frame of `size`
  /// (200 × 160), with noise, its border's left edge at `left` pixels (negative: that much of
  /// it outside the frame), its top at `top` (40).
  static func frame(
    _ dictionary: MarkerDictionary, id: Int, left: Int, cell: Int = 12, top: Int = 40,
    size: (width: Int, height: Int) = (200, 160)
  ) throws -> RGBA8Image {
    let across = dictionary.size + 2
    let marker = try dictionary.image(id: id, pixels: across * cell, quietZone: 0)
    var image = RGBA8Image(width: size.width, height: size.height, fill: SIMD4(228, 228, 228, 255))
    var random = SplitMix64(seed: UInt64(id))
    for y in 0..<(across * cell) {
      for x in 0..<(across * cell) where (0..<size.width).contains(left + x) {
        let v = UInt8(
          Swift.min(255, Swift.max(0, (Double(marker[x, y].x) * 0.85 + 20 + 2 * random.gaussian()).rounded()))
        )
        image[left + x, top + y] = SIMD4(v, v, v, 255)
      }
    }
    return image
  }

  @Test(
    "a marker touching the edge (no margin there) or with its border cut off is read, truncated; one cut into its cells is not",
    arguments: ["aruco_6x6_250", "apriltag_36h11"])
  func cutByTheEdge(name: String) throws {
    let dictionary = try #require(MarkerDictionary.named(name))
    let detector = MarkerDetector(dictionary: dictionary)
    let id = 17
    for left in [0, -6, -12] {
      let found = detector.detect(try Self.frame(dictionary, id: id, left: left))
      #expect(found.map(\.id) == [id], "\(name) at \(left): \(found.map(\.id))")
      #expect(found.first?.truncated == true, "\(name) at \(left)")
      // The corners away from the edge are where they were drawn.
      if let marker = found.first {
        let right = Double(left + (dictionary.size + 2) * 12)
        #expect(
          abs(marker.corners[1].x - right) < 0.5 && abs(marker.corners[1].y - 40) < 0.5, "\(marker.corners)")
      }
    }
    // A data column cut off: no reading.
    let cut = detector.detect(try Self.frame(dictionary, id: id, left: -18))
    #expect(cut.allSatisfy { $0.id != id || $0.truncated }, "\(cut)")
    #expect(cut.isEmpty, "\(name): \(cut.map(\.id))")
    // Inside the frame: not truncated.
    let whole = detector.detect(try Self.frame(dictionary, id: id, left: 30))
    #expect(whole.map(\.id) == [id] && whole.first?.truncated == false)
  }

  @Test(
    "a marker whose corner is outside the image, every data cell inside, is read with that corner estimated",
    arguments: [
      // A marker turned 45°, its left corner 12 px out.
      [SIMD2(-12.0, 150), SIMD2(100, 38), SIMD2(212, 150), SIMD2(100, 262)],
      // A sliver seen at a steep angle, its top-left corner 6 px above the image.
      [SIMD2(150.0, -6), SIMD2(400, 200), SIMD2(398, 262), SIMD2(138, 46)],
    ])
  func cornerOutside(corners: [SIMD2<Double>]) throws {
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    let image = try MarkerDetectionTests.frame(dictionary, id: 17, corners: corners)
    let found = MarkerDetector(dictionary: dictionary).detect(image)
    #expect(found.map(\.id) == [17], "\(found)")
    guard let marker = found.first else { return }
    #expect(marker.truncated)
    // Every corner where it was drawn, the one outside from the lines of its two sides.
    let errors = zip(marker.corners, corners).map { ($0 - $1).length }
    #expect(errors.allSatisfy { $0 < 0.5 }, "\(errors)")
  }

  @Test("a washed-out marker (its black printed at grey 150 under stage light) is read")
  func washedOut() throws {
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    let marker = try dictionary.image(id: 5, pixels: 8 * 10, quietZone: 1)
    var image = RGBA8Image(width: 160, height: 140, fill: SIMD4(242, 242, 242, 255))
    var random = SplitMix64(seed: 9)
    for y in 0..<marker.height {
      for x in 0..<marker.width {
        let v = UInt8((150 + Double(marker[x, y].x) / 255 * 92 + 2 * random.gaussian()).rounded())
        image[40 + x, 30 + y] = SIMD4(v, v, v, 255)
      }
    }
    let found = MarkerDetector(dictionary: dictionary).detect(image)
    #expect(found.map(\.id) == [5] && found.first?.hamming == 0, "\(found)")
  }
}
