import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Material bindings resolved as UsdShade resolves them for preview (usd-core 26.11's
/// `ComputeBoundMaterial("preview")`): a binding on an ancestor reaches the surfaces under it, an
/// ancestor's `strongerThanDescendants` binding beats a surface's own, and a preview-purpose
/// binding anywhere up the chain beats every all-purpose one.
@Suite("USD material bindings")
struct USDMaterialBindingTests {
  static let stage = """
    (
        metersPerUnit = 1
    )
    def Xform "World" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        rel material:binding = </World/Looks/Red> (
            bindMaterialAs = "strongerThanDescendants"
        )
        def Cube "Box" (
            prepend apiSchemas = ["MaterialBindingAPI"]
        )
        {
            rel material:binding = </World/Looks/Blue>
        }
        def Xform "Group" (
            prepend apiSchemas = ["MaterialBindingAPI"]
        )
        {
            rel material:binding = </World/Looks/Red>
            rel material:binding:preview = </World/Looks/Blue>
            def Sphere "Ball"
            {
            }
        }
        def Scope "Looks"
        {
            def Material "Red"
            {
                token outputs:surface.connect = </World/Looks/Red/Surface.outputs:surface>
                def Shader "Surface"
                {
                    uniform token info:id = "UsdPreviewSurface"
                    color3f inputs:diffuseColor = (1, 0, 0)
                    token outputs:surface
                }
            }
            def Material "Blue"
            {
                token outputs:surface.connect = </World/Looks/Blue/Surface.outputs:surface>
                def Shader "Surface"
                {
                    uniform token info:id = "UsdPreviewSurface"
                    color3f inputs:diffuseColor = (0, 0, 1)
                    token outputs:surface
                }
            }
        }
    }
    """

  /// The diffuse colour of each drawn surface, by its triangle count.
  static func colours(_ text: String) throws -> [Int: SIMD3<Float>] {
    let folder = try TemporaryFolder()
    let path = folder.path + "/bindings.usda"
    try ("#usda 1.0\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
    let mesh = try ModelAsset.load(path: path).mesh
    var out: [Int: SIMD3<Float>] = [:]
    for submesh in mesh.submeshes { out[submesh.triangles.count] = mesh.materials[submesh.material].diffuse }
    return out
  }

  @Test(
    "an Xform's binding reaches the cube under it; a stronger ancestor's beats the cube's own; a preview binding beats both"
  )
  func resolution() throws {
    // usd-core: /World/Box → /World/Looks/Red (World's stronger binding over the Box's Blue);
    // /World/Group/Ball → /World/Looks/Blue (Group's preview binding over every all-purpose one).
    let colours = try Self.colours(Self.stage)
    #expect(colours[12] == SIMD3(1, 0, 0), "\(colours)")
    #expect(
      colours.count == 2 && colours.contains { $0.key != 12 && $0.value == SIMD3(0, 0, 1) }, "\(colours)")
    // Without the strength, the Box keeps its own binding; the inherited one reaches a bare cube.
    let weaker = try Self.colours(
      Self.stage.replacingOccurrences(of: "strongerThanDescendants", with: "weakerThanDescendants"))
    #expect(weaker[12] == SIMD3(0, 0, 1), "\(weaker)")
    let inherited = try Self.colours(
      Self.stage.replacingOccurrences(of: "        rel material:binding = </World/Looks/Blue>\n", with: ""))
    #expect(inherited[12] == SIMD3(1, 0, 0), "\(inherited)")
  }

  @Test("a material draws the UsdPreviewSurface its surface output is connected to, not the first under it")
  func connectedSurface() throws {
    let colours = try Self.colours(
      """
      def Cube "Box" (
          prepend apiSchemas = ["MaterialBindingAPI"]
      )
      {
          rel material:binding = </Looks/Two>
      }
      def Scope "Looks"
      {
          def Material "Two"
          {
              token outputs:surface.connect = </Looks/Two/Used.outputs:surface>
              def Shader "Unused"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (1, 0, 0)
                  token outputs:surface
              }
              def Shader "Used"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (0, 0, 1)
                  token outputs:surface
              }
          }
      }

      """)
    #expect(colours[12] == SIMD3(0, 0, 1), "\(colours)")
  }
  @Test("a collection-based binding, which ARScene does not apply, is named in a warning; none without one")
  func collectionBinding() throws {
    // Written by usd-core 26.11 (Usd.CollectionAPI, MaterialBindingAPI.Bind(collection, ...)), whose
    // ComputeBoundMaterial gives /World/Tri /Looks/Blue, through the collection binding.
    let text = """
      (
          metersPerUnit = 1
      )
      def Xform "World" (
          prepend apiSchemas = ["CollectionAPI:blueOnes", "MaterialBindingAPI"]
      )
      {
          prepend rel collection:blueOnes:includes = </World/Tri>
          rel material:binding:collection:blueOnes = [
              </World.collection:blueOnes>,
              </Looks/Blue>,
          ] (
              bindMaterialAs = "strongerThanDescendants"
          )
          def Mesh "Tri" (
              prepend apiSchemas = ["MaterialBindingAPI"]
          )
          {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              rel material:binding = </Looks/Red>
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          }
      }
      def "Looks"
      {
          def Material "Red"
          {
              token outputs:surface.connect = </Looks/Red/S.outputs:surface>
              def Shader "S"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (1, 0, 0)
                  token outputs:surface
              }
          }
          def Material "Blue"
          {
              token outputs:surface.connect = </Looks/Blue/S.outputs:surface>
              def Shader "S"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor = (0, 0, 1)
                  token outputs:surface
              }
          }
      }

      """
    let folder = try TemporaryFolder()
    let path = try folder.write("#usda 1.0\n" + text, to: "collection.usda")
    let model = try ModelAsset.load(path: path)
    #expect(
      model.warnings.contains {
        $0.contains("collection-based material bindings (material:binding:collection:…) are not applied")
          && $0.hasSuffix("on /World")
      }, "\(model.warnings)")
    let direct = try ModelAsset.load(path: try folder.write("#usda 1.0\n" + Self.stage, to: "direct.usda"))
    #expect(!direct.warnings.contains { $0.contains("collection") }, "\(direct.warnings)")
  }
}
