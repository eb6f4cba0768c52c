import ARMesh
import ARTestSupport
import Foundation
import Testing

/// UsdSkel's binding properties count only on prims with `SkelBindingAPI` applied (usd-core 26):
/// a mesh as Reality Converter writes it (`skel:skeleton` and joint influences, no API) is drawn
/// unskinned and binds nothing its root's extent is padded for. Reference values from usd-core.
@Suite("USD skeleton bindings need SkelBindingAPI")
struct USDSkelBindingAPITests {
  @Test("a binary layer's apiSchemas list ops: a mesh without the API is not skinned, one with it is")
  func binaryListOps() throws {
    let model = try ModelAsset.load(path: Fixtures.path("usd/skel-binding-api.usdz"))
    let usdCore = try USDTests.bboxCache("skel-binding-api.usdz")
    let box = try #require(model.declaredBounds)
    // usd-core: /A binds nothing (its joint's pivot, 0 5 0); /B's padded root, 20 m along x.
    #expect(box.min == usdCore.min && box.max == usdCore.max, "\(box) against \(usdCore)")
    // /A's triangle as authored, /B's skinned 5 m up (its joint's rest pose).
    let drawn = try #require(model.geometryBounds)
    #expect(drawn.min == SIMD3(0, 0, 0) && drawn.max == SIMD3(21, 6, 0), "\(drawn)")
    #expect(model.warnings.contains { $0.contains("/A/Rigid") && $0.contains("not SkelBindingAPI applied") })
    #expect(!model.warnings.contains { $0.contains("/B/Skinned") })
  }

  @Test("a text layer's apiSchemas compose as list ops through a reference: added, and deleted")
  func textListOpsThroughReferences() throws {
    let model = try USDBoundsRulesTests.load(Self.referencedRig)
    let box = try #require(model.declaredBounds)
    // usd-core: (-5, 0, -5) to (25, 10, 5): both roots padded, /Dropped/M still bound to its
    // root's skeleton (a skinnable prim under it), though its own binding properties are not read.
    #expect(box.min == SIMD3(-5, 0, -5) && box.max == SIMD3(25, 10, 5), "\(box)")
    // usd-core's BakeSkinning: /Kept/M moved 5 m up; /Dropped/M as authored, 20 m along x.
    let drawn = try #require(model.geometryBounds)
    #expect(drawn.min == SIMD3(0, 0, 0) && drawn.max == SIMD3(21, 6, 0), "\(drawn)")
    #expect(
      model.warnings.contains { $0.contains("/Dropped/M") && $0.contains("not SkelBindingAPI applied") })
  }

  @Test(
    "binding relationships count only on a prim with the API",
    arguments: [
      // (where skel:skeleton is, whether that prim has the API, the root's x extent from usd-core)
      ("mesh", false, 0.0), ("mesh", true, 5.0), ("root", false, 0.0), ("root", true, 5.0),
    ])
  func bindingRelationship(place: String, applied: Bool, padding: Double) throws {
    let api = "prepend apiSchemas = [\"SkelBindingAPI\"]"
    let relationship = "rel skel:skeleton = </Root/Skel>"
    let text = """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def SkelRoot "Root" (\(place == "root" && applied ? api : ""))
      {
          \(place == "root" ? relationship : "")
          def Skeleton "Skel" (\(api))
          {
              uniform token[] joints = ["J"]
              uniform matrix4d[] bindTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))]
              uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 5, 0, 1))]
          }
          def Mesh "M" (\(place == "root" || applied ? api : ""))
          {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
              float3[] extent = [(0, 0, 0), (1, 1, 0)]
              \(place == "mesh" ? relationship : "")
              int[] primvars:skel:jointIndices = [0, 0, 0] (
                  interpolation = "vertex"
              )
              float[] primvars:skel:jointWeights = [1, 1, 1] (
                  interpolation = "vertex"
              )
          }
      }
      """
    let model = try USDBoundsRulesTests.load(text)
    let box = try #require(model.declaredBounds)
    // usd-core: the joint's pivot (0, 5, 0), padded by 5 where the mesh is bound.
    #expect(box.min == SIMD3(-padding, 5 - padding, -padding), "\(box)")
    #expect(box.max == SIMD3(padding, 5 + padding, padding), "\(box)")
    // Skinned (5 m up, the rest pose) exactly where bound.
    let drawn = try #require(model.geometryBounds)
    #expect(drawn.min.y == (padding > 0 ? 5 : 0), "\(drawn)")
  }

  /// Two skeleton roots whose meshes reference one class applying the API: /Kept's adds another
  /// schema (the API stays), /Dropped's deletes it.
  static let referencedRig = """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    class Mesh "Proto" (
        prepend apiSchemas = ["SkelBindingAPI"]
    )
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        float3[] extent = [(0, 0, 0), (1, 1, 0)]
        int[] primvars:skel:jointIndices = [0, 0, 0] (
            interpolation = "vertex"
        )
        float[] primvars:skel:jointWeights = [1, 1, 1] (
            interpolation = "vertex"
        )
    }
    def SkelRoot "Kept" (
        prepend apiSchemas = ["SkelBindingAPI"]
    )
    {
        rel skel:skeleton = </Kept/Skel>
        def Skeleton "Skel" {
            uniform token[] joints = ["J"]
            uniform matrix4d[] bindTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))]
            uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 5, 0, 1))]
        }
        def Mesh "M" (
            prepend references = </Proto>
            prepend apiSchemas = ["MaterialBindingAPI"]
        )
        {
        }
    }
    def SkelRoot "Dropped" (
        prepend apiSchemas = ["SkelBindingAPI"]
    )
    {
        double3 xformOp:translate = (20, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        rel skel:skeleton = </Dropped/Skel>
        def Skeleton "Skel" {
            uniform token[] joints = ["J"]
            uniform matrix4d[] bindTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))]
            uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 5, 0, 1))]
        }
        def Mesh "M" (
            prepend references = </Proto>
            delete apiSchemas = ["SkelBindingAPI"]
        )
        {
        }
    }
    """
}
