import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// USD's `xformOp:orient` as usd-core evaluates it: through `GfRotation`, not the quaternion's
/// own matrix.
@Suite("USD orient ops")
struct USDOrientTests {
  /// A square turned by the quaternion a glTF sample converted to USDZ carries
  /// (usd-wg/assets' InterpolationTest, cube 4: `w` 0.99997777, `z` −0.0066837, 2·10⁻⁷ from
  /// unit), and usd-core 26.11's BBoxCache bounds of it (default and render purposes).
  @Test("a quaternion not quite unit: usd-core's bounds to 1e-12 m (its own matrix was 3e-5 m off)")
  func notQuiteUnit() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/orient.usda"
    try """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    def Mesh "Cube" {
        double3 xformOp:translate = (3.33506178855896, 3.356412410736084, 0)
        quatf xformOp:orient = (0.9999777674674988, 0, 0, -0.006683696992695332)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:orient"]
        point3f[] points = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1)]
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let bounds = try #require(model.declaredBounds)
    let usdCore = (
      min: SIMD3(2.321814662268762, 2.343165284445886, -1.0),
      max: SIMD3(4.3483089148491585, 4.369659537026282, -1.0)
    )
    #expect(
      (bounds.min - usdCore.min).max() < 1e-12 && (usdCore.min - bounds.min).max() < 1e-12
        && (bounds.max - usdCore.max).max() < 1e-12 && (usdCore.max - bounds.max).max() < 1e-12,
      "\(bounds)")
  }

  @Test("turns by whole quaternions as their matrices; no imaginary part is no turn")
  func unitQuaternions() {
    // A quarter turn about z: (x, y, z, w) = (0, 0, sin 45°, cos 45°).
    let s = 0.5.squareRoot()
    let quarter = USDTransformOps.orientation(SIMD4(0, 0, s, s))
    let turned = quarter * SIMD3(1.0, 0, 0)
    #expect((turned - SIMD3(0, 1, 0)).length < 1e-15, "\(turned)")
    #expect(USDTransformOps.orientation(SIMD4(0, 0, 0, -2)) == .identity)
  }
}
