import ARMath
import ARScene
import Testing

@testable import ARSceneRendering

/// Label placement ends on any input: labels stacked on one spot of a tiny image, points
/// projected absurdly far or to NaN (a point nearly behind the camera).
@Suite("Label placement")
struct LabelPlacementTests {
  @Test("fifty labels on one spot of a 96×72 image: each placed, raised above the nearer ones")
  func stacked() {
    let shown = (0..<50).map { (distance: Double($0), pixel: SIMD2<Double>(48, 36), text: "Stop \($0)") }
    let placed = Scene.placeLabels(shown, size: 10, imageSize: [96, 72])
    #expect(placed.count == 50)
    // Nearest lowest; every farther one strictly higher (smaller y) than the one before.
    #expect(zip(placed, placed.dropFirst()).allSatisfy { $1.centre.y < $0.centre.y })
  }

  @Test("points far off the image, or not finite, are left out instead of raised for ever")
  func farAndNonFinite() {
    let shown: [(distance: Double, pixel: SIMD2<Double>, text: String)] = [
      (1, [48, 36], "here"), (2, [48, 1e17], "far below"), (3, [.nan, 10], "nan"),
      (4, [48, -1e300], "far above"),
      (5, [.infinity, 3], "infinite"),
    ]
    let placed = Scene.placeLabels(shown, size: 10, imageSize: [96, 72])
    #expect(placed.map(\.text) == ["here"])
  }
}
