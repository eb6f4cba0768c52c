import ARMesh
import ARTestSupport
import Foundation
import Testing

/// BBoxCache boxes what lies under a prim whose model kind is a component or a subcomponent in
/// that prim's own space, then boxes that box, turned with it, in the space above: a turned
/// component's bounds are looser than the box of its meshes' extents. Reference values from
/// usd-core (Tools/generate-usd-fixtures).
@Suite("USD bounds in component space")
struct USDComponentBoundsTests {
  @Test(
    "a turned component, a subcomponent in it and a referenced copy are bounded as BBoxCache bounds them",
    arguments: ["component-bounds.usdz", "component-bounds-text.usdz"])
  func componentBoxes(file: String) throws {
    let model = try ModelAsset.load(path: Fixtures.path("usd/" + file))
    let usdCore = try USDTests.bboxCache(file)
    let box = try #require(model.declaredBounds)
    #expect(Self.apart(box.min, usdCore.min) < 1e-12 && Self.apart(box.max, usdCore.max) < 1e-12, "\(box)")
    // The tight box of the extents (what ARScene reported before): /Kit's two triangles and its
    // part's, turned, reach only 1.41 m towards −z; the component's box of a box reaches 2.83.
    let drawn = try #require(model.geometryBounds)
    #expect(drawn.min.z > box.min.z + 1 && drawn.max.x <= box.max.x, "\(drawn) within \(box)")
  }

  /// The largest difference of two points' coordinates.
  static func apart(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
  }

  @Test("a group is not a component: its meshes are boxed tightly, in the stage's space")
  func groupIsTight() throws {
    let text = """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Xform "G" (
          kind = "group"
      )
      {
          float3 xformOp:rotateXYZ = (0, 45, 0)
          uniform token[] xformOpOrder = ["xformOp:rotateXYZ"]
          def Mesh "A" {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
              float3[] extent = [(0, 0, 0), (1, 1, 0)]
          }
          def Mesh "B" {
              double3 xformOp:translate = (3, 0, 2)
              uniform token[] xformOpOrder = ["xformOp:translate"]
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
              float3[] extent = [(0, 0, 0), (1, 1, 0)]
          }
      }
      """
    let box = try #require(try USDBoundsRulesTests.load(text).declaredBounds)
    // usd-core: (0, 0, -1.41421) to (4.24264, 1, 0); as a component, z from -2.82843 to 1.41421.
    let root2 = 2.0.squareRoot()
    #expect(Self.apart(box.min, SIMD3(0, 0, -root2)) < 1e-12, "\(box)")
    #expect(Self.apart(box.max, SIMD3(3 * root2, 1, 0)) < 1e-12, "\(box)")
    let component = try #require(
      try USDBoundsRulesTests.load(text.replacingOccurrences(of: "\"group\"", with: "\"component\""))
        .declaredBounds)
    #expect(Self.apart(component.min, SIMD3(0, 0, -2 * root2)) < 1e-12, "\(component)")
    #expect(Self.apart(component.max, SIMD3(3 * root2, 1, root2)) < 1e-12, "\(component)")
  }
}
