import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// What USD's BBoxCache (default and render purposes) takes into a stage's bounds, beyond the
/// meshes drawn: usd-core 26.11's box for one stage of each case, found in Apple's and usd-wg's
/// test assets (`purpose.usda`, `Environment.usda`'s lights, `inverse_extent.usda`,
/// `pointsTypes.usda`).
@Suite("USD bounds as BBoxCache takes them")
struct USDBoundsRulesTests {
  static let stage = """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    def Xform "World" {
        def Cube "Render" { token purpose = "render" }
        def Cube "Other" { token purpose = "other"
            double3 xformOp:translate = (9, 0, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
        def SphereLight "Light" { float3[] extent = [(-3, -3, -3), (3, 3, 3)]
            double3 xformOp:translate = (0, 5, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
        def Mesh "Inverted" { float3[] extent = [(1, 1, 1), (-1, -1, -1)]
            int[] faceVertexCounts = [3]
            int[] faceVertexIndices = [0, 1, 2]
            point3f[] points = [(0, 0, -20), (1, 0, -20), (0, 1, -20)] }
        def Mesh "Pointless" { float3[] extent = [(-1, -1, -1), (1, 1, 1)]
            int[] faceVertexCounts = [3]
            int[] faceVertexIndices = [0, 1, 2]
            int[] points = [0, 1, 2]
            double3 xformOp:translate = (0, 0, 7)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
    }
    """

  @Test(
    "an unknown purpose is left out, a light's extent and an undrawable mesh's extent are in, an inverted extent is empty"
  )
  func bboxCacheRules() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/rules.usda"
    try Self.stage.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let box = try #require(model.declaredBounds)
    // usd-core: (-3, -1, -3) to (3, 8, 8).
    #expect(box.min == SIMD3(-3, -1, -3) && box.max == SIMD3(3, 8, 8), "\(box)")
    // The render cube and the inverted mesh's triangle are drawn; nothing of purpose `other`.
    #expect(model.mesh.triangleCount == 13)
    #expect(model.warnings.contains { $0.contains("1 mesh not drawn, without points that are 3-vectors") })
    #expect(model.warnings.contains { $0.contains("of purpose other") && $0.contains("/World/Other") })
  }

  @Test(
    "a stage whose only extent is inverted has empty bounds to usd-core: reported as drawn, with a warning")
  func onlyInvertedExtent() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/inverse_extent.usda"
    // Apple's inverse_extent.usda, a cube with its extent's corners swapped: usd-core's box is empty.
    try """
    #usda 1.0
    (
        metersPerUnit = 0.01
    )
    def Mesh "mesh" { float3[] extent = [(1, 1, 1), (0, 0, 0)]
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(-0.5, -0.5, -0.5), (0.5, -0.5, -0.5), (-0.5, 0.5, -0.5)] }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    #expect(model.declaredBounds == nil)
    #expect(model.geometryBounds != nil)
    #expect(model.warnings.contains { $0.contains("USD's bounds are empty") }, "\(model.warnings)")
  }
}
