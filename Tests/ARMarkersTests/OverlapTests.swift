import Testing

@testable import ARMarkers

/// One report a marker: readings of one square by more than one thresholding rule.
@Suite("Markers: one report a square")
struct OverlapTests {
  static func marker(_ id: Int, at x: Double, hamming: Int = 0, sigma: Double? = 0.1) -> DetectedMarker {
    DetectedMarker(
      id: id, corners: [SIMD2(x, 10), SIMD2(x + 20, 10), SIMD2(x + 20, 30), SIMD2(x, 30)], hamming: hamming,
      cornerSigma: sigma, decisionMargin: 40)
  }

  @Test("the same id twice on one square: the better reading; on two squares: both")
  func sameId() {
    let one = MarkerDetector.resolvingOverlaps([Self.marker(0, at: 0, hamming: 1), Self.marker(0, at: 6)])
    #expect(one.count == 1 && one[0].hamming == 0 && one[0].corners[0].x == 6)
    let unrefined = MarkerDetector.resolvingOverlaps([
      Self.marker(0, at: 0, sigma: nil), Self.marker(0, at: 4),
    ])
    #expect(unrefined.count == 1 && unrefined[0].cornerSigma != nil)
    #expect(MarkerDetector.resolvingOverlaps([Self.marker(0, at: 0), Self.marker(0, at: 50)]).count == 2)
  }

  @Test(
    "a point inside, on the edge of or outside an outline of either winding; a corner not a number encloses nothing"
  )
  func encloses() {
    let square = Self.marker(0, at: 0)
    var reversed = square
    reversed.corners.reverse()
    for marker in [square, reversed] {
      #expect(
        marker.encloses(SIMD2(10, 20)) && marker.encloses(SIMD2(0, 20)) && marker.encloses(SIMD2(20, 30)))
      #expect(
        !marker.encloses(SIMD2(-1, 20)) && !marker.encloses(SIMD2(10, 31)) && !marker.encloses(SIMD2(25, 5)))
    }
    var broken = square
    broken.corners[2] = SIMD2(.nan, 30)
    #expect(!broken.encloses(SIMD2(10, 20)))
  }

  @Test("two ids on one square: the one with fewer bits corrected, or neither")
  func differentIds() {
    let better = MarkerDetector.resolvingOverlaps([Self.marker(3, at: 0, hamming: 2), Self.marker(9, at: 3)])
    #expect(better.map(\.id) == [9])
    #expect(
      MarkerDetector.resolvingOverlaps([Self.marker(3, at: 0, hamming: 1), Self.marker(9, at: 3, hamming: 1)])
        .isEmpty)
  }
}
