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
            \(USDTestText.previewMaterial("/World/Looks/Red", diffuse: "(1, 0, 0)"))
            \(USDTestText.previewMaterial("/World/Looks/Blue", diffuse: "(0, 0, 1)"))
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

  /// A stage of two meshes under `/World` (A of 1 triangle, B of 2) with the collections
  /// `blue` and `inner` on `/World` (`collection`, their rules), World's `binding`, and each
  /// mesh's own binding; the materials Red and Blue under `/Looks`.
  static func collectionStage(binding: String, collection: String, a: String = "", b: String = "") -> String {
    func mesh(_ name: String, _ count: Int, _ binding: String) -> String {
      let points = (0..<count).map { "(\($0), 0, 0), (\($0), 1, 0), (\($0 + 1), 0, 0)" }
      return """
            def Mesh "\(name)"
            {
                int[] faceVertexCounts = [\(Array(repeating: "3", count: count).joined(separator: ", "))]
                int[] faceVertexIndices = [\((0..<(3 * count)).map(String.init).joined(separator: ", "))]
                point3f[] points = [\(points.joined(separator: ", "))]
                \(binding)
            }

        """
    }
    let looks = ["Red": "(1, 0, 0)", "Blue": "(0, 0, 1)"].sorted { $0.key < $1.key }.map { name, colour in
      USDTestText.previewMaterial("/Looks/" + name, diffuse: colour)
    }
    return """
      (
          metersPerUnit = 1
      )
      def Xform "World" (
          prepend apiSchemas = ["CollectionAPI:blue", "CollectionAPI:inner", "MaterialBindingAPI"]
      )
      {
          \(collection)
          \(binding)
      \(mesh("A", 1, a))\(mesh("B", 2, b))}
      def "Looks"
      {
      \(looks.joined())}

      """
  }

  @Test(
    "collection-based bindings as usd-core's ComputeBoundMaterial resolves them",
    arguments: [
      // (World's binding, its collections, A's and B's own bindings, usd-core's materials of A and B)
      (
        "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>] (bindMaterialAs = \"strongerThanDescendants\")",
        "prepend rel collection:blue:includes = </World/A>", "rel material:binding = </Looks/Red>", "",
        "Blue", ""
      ),
      (
        "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>]",
        "prepend rel collection:blue:includes = </World/A>", "rel material:binding = </Looks/Red>", "", "Red",
        ""
      ),
      (
        "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>]",
        "prepend rel collection:blue:includes = </World>\nprepend rel collection:blue:excludes = </World/B>",
        "", "",
        "Blue", ""
      ),
      (
        "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>]",
        "prepend rel collection:blue:includes = [</World>, </World/B>]\nuniform token collection:blue:expansionRule = \"explicitOnly\"",
        "", "", "", "Blue"
      ),
      (
        "rel material:binding:collection:preview:blue = [</World.collection:blue>, </Looks/Blue>]",
        "prepend rel collection:blue:includes = </World/A>", "rel material:binding = </Looks/Red>",
        "rel material:binding = </Looks/Red>", "Blue", "Red"
      ),
      (
        "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>]",
        "prepend rel collection:blue:includes = </World.collection:inner>\nprepend rel collection:inner:includes = </World/B>",
        "rel material:binding = </Looks/Red>", "", "Red", "Blue"
      ),
    ])
  func collectionBindings(
    _ binding: String, _ collection: String, _ a: String, _ b: String, _ expectedA: String,
    _ expectedB: String
  ) throws {
    let colours = try Self.colours(Self.collectionStage(binding: binding, collection: collection, a: a, b: b))
    let named = [
      "Red": SIMD3<Float>(1, 0, 0), "Blue": SIMD3<Float>(0, 0, 1), "": SIMD3<Float>(repeating: 0.8),
    ]
    #expect(colours[1] == named[expectedA] && colours[2] == named[expectedB], "\(colours)")
  }

  @Test(
    "a collection ARScene cannot read whole (a membershipExpression, one including itself) is named in a warning",
    arguments: [
      (
        "uniform pathExpression collection:blue:membershipExpression = \"/World/B\"", "a membershipExpression"
      ),
      ("prepend rel collection:blue:includes = </World.collection:blue>", "more than eight deep"),
    ])
  func unreadCollections(_ collection: String, _ why: String) throws {
    let folder = try TemporaryFolder()
    let text = Self.collectionStage(
      binding: "rel material:binding:collection:blue = [</World.collection:blue>, </Looks/Blue>]",
      collection: collection)
    let model = try ModelAsset.load(path: try folder.write("#usda 1.0\n" + text, to: "collections.usda"))
    #expect(
      model.warnings.contains {
        $0.contains("collections that bind materials are not read whole")
          && $0.contains("/World.collection:blue")
          && $0.contains(why)
      }, "\(model.warnings)")
  }
}
