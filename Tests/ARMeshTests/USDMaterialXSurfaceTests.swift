import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Reality Composer Pro's materials: `outputs:mtlx:surface` connected to MaterialX's
/// `UsdPreviewSurface` node or to RealityKit's PBR surface, directly or through a node graph's
/// output. Their constant inputs are drawn (RealityKit's `baseColor` as the diffuse colour);
/// inputs connected to other nodes are named in a warning; a UsdPreviewSurface on
/// `outputs:surface` is drawn first, as usd-core's preview renderer draws it.
@Suite("USD MaterialX surfaces")
struct USDMaterialXSurfaceTests {
  static let stage = """
    (
        metersPerUnit = 1
    )
    def Cube "Red" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        rel material:binding = </Looks/RealityKit>
    }
    def Sphere "Green" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        rel material:binding = </Looks/Preview>
    }
    def Scope "Looks"
    {
        def Material "RealityKit"
        {
            token outputs:mtlx:surface.connect = </Looks/RealityKit/PBRSurface.outputs:out>
            token outputs:realitykit:vertex
            def Shader "PBRSurface"
            {
                uniform token info:id = "ND_realitykit_pbr_surfaceshader"
                color3f inputs:baseColor = (0.8, 0.1, 0.1)
                float inputs:roughness = 0.25
                float inputs:metallic = 1
                float inputs:roughness.connect = </Looks/RealityKit/Noise.outputs:out>
                token outputs:out
            }
            def Shader "Noise"
            {
                uniform token info:id = "ND_noise2d_float"
                float outputs:out
            }
        }
        def Material "Preview"
        {
            token outputs:mtlx:surface.connect = </Looks/Preview/Graph.outputs:surface>
            def NodeGraph "Graph"
            {
                token outputs:surface.connect = </Looks/Preview/Graph/Surface.outputs:out>
                def Shader "Surface"
                {
                    uniform token info:id = "ND_UsdPreviewSurface_surfaceshader"
                    color3f inputs:diffuseColor = (0.1, 0.7, 0.2)
                    float inputs:opacity = 0.5
                    token outputs:out
                }
            }
        }
    }
    """

  @Test(
    "RealityKit's PBR surface and MaterialX's UsdPreviewSurface draw their constants; a connected input is named"
  )
  func constantsDrawn() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/rcp.usda"
    try ("#usda 1.0\n" + Self.stage).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let materials = model.mesh.submeshes.map { model.mesh.materials[$0.material] }
    let red = try #require(materials.first { $0.diffuse == SIMD3(0.8, 0.1, 0.1) }, "\(materials)")
    #expect(red.metallicRoughness?.metallic == 1 && red.metallicRoughness?.roughness == 0.25)
    let green = try #require(materials.first { $0.diffuse == SIMD3(0.1, 0.7, 0.2) }, "\(materials)")
    #expect(green.opacity == 0.5)
    #expect(
      model.warnings.contains {
        $0.contains("/Looks/RealityKit")
          && $0.contains("its roughness is connected to nodes ARScene does not evaluate")
      }, "\(model.warnings)")
    #expect(!model.warnings.contains { $0.contains("has no UsdPreviewSurface") }, "\(model.warnings)")
  }

  @Test("a UsdPreviewSurface on outputs:surface is drawn before the MaterialX surface beside it")
  func previewSurfaceFirst() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/both.usda"
    let fallback = [
      "token outputs:surface.connect = </Looks/RealityKit/Fallback.outputs:surface>",
      "def Shader \"Fallback\"", "{", "    uniform token info:id = \"UsdPreviewSurface\"",
      "    color3f inputs:diffuseColor = (0, 0, 1)", "    token outputs:surface", "}",
    ].map { "        " + $0 + "\n" }.joined()
    let stage = Self.stage.replacingOccurrences(
      of: "        token outputs:realitykit:vertex\n", with: fallback)
    #expect(stage != Self.stage)
    try ("#usda 1.0\n" + stage).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let colours = model.mesh.submeshes.map { model.mesh.materials[$0.material].diffuse }
    #expect(colours.contains(SIMD3(0, 0, 1)) && !colours.contains(SIMD3(0.8, 0.1, 0.1)), "\(colours)")
  }
}
