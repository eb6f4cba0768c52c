import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// How a USDZ package's layers name its files, as usd-core's package resolver finds them
/// (OpenUSD's `testUsdUsdzFileFormat`: `anchored_refs_sub.usdz`, `search_refs_sub.usdz` and
/// their nested forms): relative to the writing layer's folder in the package, a search path
/// then from the root layer's folder; and a nested package's files kept apart from another's
/// of the same name.
@Suite("USD package paths")
struct USDPackagePathsTests {
  @Test("anchored paths from the writing layer's folder only, search paths from it then the root layer's")
  func rules() {
    let paths = USDPackagePaths(
      members: ["scene/root.usda", "scene/refs/ref.usda", "scene/refs/sub/a.usda", "scene/sub/b.usda"],
      root: "scene/root.usda")
    #expect(paths.member("./refs/ref.usda", writtenBy: "scene/root.usda") == "scene/refs/ref.usda")
    #expect(paths.member("../sub/b.usda", writtenBy: "scene/refs/ref.usda") == "scene/sub/b.usda")
    #expect(paths.member("sub/a.usda", writtenBy: "scene/refs/ref.usda") == "scene/refs/sub/a.usda")
    #expect(paths.member("sub/b.usda", writtenBy: "scene/refs/ref.usda") == "scene/sub/b.usda")
    // Anchored, it is looked for beside the writer and nowhere else.
    #expect(paths.member("./sub/b.usda", writtenBy: "scene/refs/ref.usda") == "scene/refs/sub/b.usda")
    #expect(paths.member("../../../x.usda", writtenBy: "scene/root.usda") == nil)
    #expect(paths.member("/etc/passwd", writtenBy: "scene/root.usda") == nil)
    let nested = USDPackagePaths(
      members: ["0/wood.png"], root: "root.usdc", enclosing: ["kit.usdz", "parts.usdz"])
    #expect(nested.qualified("0/wood.png") == "kit.usdz[parts.usdz[0/wood.png]]")
  }

  /// A Mesh prim `name`'s Xform holding `count` triangles, as a layer's text.
  static func triangles(_ name: String, _ count: Int) -> String {
    let points = (0..<count).map { "(\($0), 0, 0), (\($0), 1, 0), (\($0 + 1), 0, 0)" }
    return """
      #usda 1.0
      def Xform "\(name)"
      {
          def Mesh "M\(name)"
          {
              int[] faceVertexCounts = [\(Array(repeating: "3", count: count).joined(separator: ", "))]
              int[] faceVertexIndices = [\((0..<(3 * count)).map(String.init).joined(separator: ", "))]
              point3f[] points = [\(points.joined(separator: ", "))]
          }
      }

      """
  }

  /// The package of OpenUSD's `search_refs_sub.usdz`, its layers each a mesh of its own size:
  /// the root layer in `scene/`, a layer in `scene/refs/` naming `sub/in_subdir.usda` (beside
  /// it), `sub/in_root.usda` (only beside the root layer) and `sub/in_both.usda` (both: the
  /// writer's, 4 triangles, wins over the root's 8).
  static let searchPackage = USDTests.zip([
    (
      "scene/root.usda",
      "#usda 1.0\n(\n    defaultPrim = \"Model\"\n    metersPerUnit = 1\n)\ndef \"Model\" (\n    references = @./refs/ref.usda@</Ref>\n)\n{\n}\n"
    ),
    (
      "scene/refs/ref.usda",
      "#usda 1.0\ndef \"Ref\" (\n    references = [@sub/in_subdir.usda@</A>, @sub/in_root.usda@</B>, "
        + "@sub/in_both.usda@</C>]\n)\n{\n}\n"
    ),
    ("scene/refs/sub/in_subdir.usda", triangles("A", 1)),
    ("scene/sub/in_root.usda", triangles("B", 2)),
    ("scene/refs/sub/in_both.usda", triangles("C", 4)),
    ("scene/sub/in_both.usda", triangles("C", 8)),
  ])

  @Test("a root layer in a subfolder: its references found as usd-core finds them (7 triangles), also nested")
  func rootInSubfolder() throws {
    // usd-core 26.11 on the same package: /Model/MA 1, /Model/MB 2, /Model/MC 4 triangles.
    let asset = try USDAsset(bytes: Self.searchPackage, path: "search.usdz")
    #expect(asset.mesh.triangleCount == 7, "\(asset.warnings)")
    let outer = USDTests.zip(files: [
      ("kit.usda", Array("#usda 1.0\ndef \"Kit\" (\n    references = @search.usdz@\n)\n{\n}\n".utf8)),
      ("search.usdz", Self.searchPackage),
    ])
    #expect(try USDAsset(bytes: outer, path: "kit.usdz").mesh.triangleCount == 7)
  }

  @Test("an anchored reference is not looked for beside the root layer: refused by name")
  func anchoredNotSearched() throws {
    let package = USDTests.zip([
      ("scene/root.usda", "#usda 1.0\ndef \"Model\" (\n    references = @./refs/ref.usda@</Ref>\n)\n{\n}\n"),
      ("scene/refs/ref.usda", "#usda 1.0\ndef \"Ref\" (\n    references = @./sub/b.usda@</B>\n)\n{\n}\n"),
      ("scene/sub/b.usda", Self.triangles("B", 2)),
    ])
    #expect {
      _ = try USDAsset(bytes: package, path: "t.usdz")
    } throws: { error in
      "\(error)"
        == "t.usdz[scene/refs/ref.usda]: /Ref: references ./sub/b.usda, which the package does not hold"
    }
  }

  /// A package whose root layer's default prim draws a triangle textured by its image at
  /// `0/wood.png`.
  static func texturedPackage(_ image: [UInt8]) -> [UInt8] {
    let stage = """
      #usda 1.0
      (
          defaultPrim = "Part"
          metersPerUnit = 1
      )
      def Xform "Part"
      {
          def Mesh "Triangle" (
              prepend apiSchemas = ["MaterialBindingAPI"]
          )
          {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
              texCoord2f[] primvars:st = [(0, 0), (1, 0), (0, 1)] (
                  interpolation = "vertex"
              )
              rel material:binding = </Part/Material>
          }
          def Material "Material"
          {
              token outputs:surface.connect = </Part/Material/Surface.outputs:surface>
              def Shader "Surface"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  float3 inputs:diffuseColor.connect = </Part/Material/Image.outputs:rgb>
                  token outputs:surface
              }
              def Shader "Image"
              {
                  uniform token info:id = "UsdUVTexture"
                  asset inputs:file = @0/wood.png@
                  float3 outputs:rgb
              }
          }
      }

      """
    return USDTests.zip(files: [("root.usda", Array(stage.utf8)), ("0/wood.png", image)])
  }

  static func png(_ fixture: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture))))
  }

  @Test("two nested packages' images of the same name stay each package's own")
  func nestedImagesApart() throws {
    let (board, grade) = (
      try Self.png("obj/textures/checker board.png"), try Self.png("film/grade-input.png")
    )
    let root = """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def "First" (
          references = @first.usdz@
      )
      {
      }
      def "Second" (
          references = @second.usdz@
      )
      {
      }

      """
    let kit = USDTests.zip(files: [
      ("kit.usda", Array(root.utf8)), ("first.usdz", Self.texturedPackage(board)),
      ("second.usdz", Self.texturedPackage(grade)),
    ])
    let asset = try USDAsset(bytes: kit, path: "kit.usdz")
    #expect(asset.warnings.isEmpty, "\(asset.warnings)")
    let images = Set(asset.embeddedImages.values)
    #expect(images == [board, grade], "\(asset.embeddedImages.keys.sorted())")
    #expect(asset.embeddedImages.keys.contains { $0.hasSuffix("#first.usdz[0/wood.png]") })
  }

  @Test("a bare layer's referenced package brings its images (OpenUSD's nestedUsdz/combined2.usda)")
  func bareLayerReferencingPackage() throws {
    let folder = try TemporaryFolder()
    let image = try Self.png("obj/textures/checker board.png")
    try Data(Self.texturedPackage(image)).write(to: URL(fileURLWithPath: folder.path + "/part.usdz"))
    let path = try folder.write(
      "#usda 1.0\n(\n    metersPerUnit = 1\n)\ndef \"Part\" (\n    references = @part.usdz@\n)\n{\n}\n",
      to: "scene.usda")
    let model = try ModelAsset.load(path: path)
    #expect(model.warnings.isEmpty, "\(model.warnings)")
    #expect(Array(model.embeddedImages.values) == [image])
    #expect(model.mesh.materials.contains { $0.diffuseTexture != nil })
  }
}
