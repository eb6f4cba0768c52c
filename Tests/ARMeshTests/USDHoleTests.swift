import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// A mesh's `holeIndices`: the faces they name are not drawn (nor hit, nor counted), as Hydra
/// triangulates a mesh with holes; subsets' materials still go to the other faces.
@Suite("USD mesh holes")
struct USDHoleTests {
  /// Three unit quads in a row along x (faces 0, 1, 2), face 2 bound to red through a
  /// `GeomSubset`, with `holes` (USD text) on the mesh: the model, and the triangles
  /// `model stats` counts (the stage surveyed, no mesh assembled).
  static func load(holes: String) throws -> (model: ModelAsset, surveyed: Int) {
    let folder = try TemporaryFolder()
    let path = try USDTestText.write(
      """
      def Mesh "Strip" {
          int[] faceVertexCounts = [4, 4, 4]
          int[] faceVertexIndices = [0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6]
          point3f[] points = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)]
          uniform token subdivisionScheme = "none"
          \(holes)
          def GeomSubset "Last" (prepend apiSchemas = ["MaterialBindingAPI"]) {
              uniform token elementType = "face"
              uniform token familyName = "materialBind"
              int[] indices = [2]
              rel material:binding = </Red>
          }
      }
      """ + "\n" + USDTestText.previewMaterial("/Red", diffuse: "(1, 0, 0)"), as: "strip.usda", in: folder)
    return (try ModelAsset.load(path: path), try ModelStatistics.read(path: path).statistics.triangles)
  }

  /// The x of each drawn triangle's centre, with its material's name.
  static func centres(_ model: ModelAsset) -> [(x: Double, material: String)] {
    model.mesh.submeshes.flatMap { submesh in
      submesh.triangles.map { t in
        let x =
          (0..<3).map { model.mesh.modelPosition(Int(model.mesh.indices[3 * t + $0])).x }.reduce(0, +) / 3
        return (x, model.mesh.materials[submesh.material].name)
      }
    }
  }

  @Test("the middle face a hole: the first drawn in the mesh's material, the last red, nothing between")
  func middleHole() throws {
    let (model, surveyed) = try Self.load(holes: "int[] holeIndices = [1]")
    let drawn = Self.centres(model)
    #expect(drawn.count == 4, "\(drawn)")
    #expect(!drawn.contains { $0.x > 1 && $0.x < 2 }, "\(drawn)")
    #expect(
      drawn.filter { $0.x > 2 }.allSatisfy { $0.material == "Red" } && drawn.filter { $0.x > 2 }.count == 2)
    #expect(drawn.filter { $0.x < 1 }.allSatisfy { $0.material != "Red" })
    #expect(ModelStatistics(model).triangles == 4 && surveyed == 4)
  }

  @Test("without holes every face is drawn; an empty list changes nothing")
  func noHoles() throws {
    for holes in ["", "int[] holeIndices = []"] {
      let (model, surveyed) = try Self.load(holes: holes)
      #expect(Self.centres(model).count == 6 && surveyed == 6, "\(holes)")
    }
  }

  @Test("a hole naming a face the mesh does not have: an error naming holeIndices")
  func holeOutOfRange() throws {
    #expect {
      _ = try Self.load(holes: "int[] holeIndices = [3]")
    } throws: { error in
      "\(error)".contains("/Strip.holeIndices") && "\(error)".contains("face 3 of a mesh of 3 faces")
    }
  }
}
