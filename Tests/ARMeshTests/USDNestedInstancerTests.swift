import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Point instancers as Hydra draws them and usd-core's BBoxCache bounds them, beyond one level:
/// an instancer whose prototype is another instancer (Houdini's and Pixar's nested scatters,
/// usdImaging's nestedPointInstancers.usda), a prototype outside the instancer also drawn as
/// itself, a cycle of instancers refused by name, and an instancer whose instances cannot be
/// computed drawn as usd-core draws it: not at all, here with a warning. Bounds are usd-core
/// 26.11's, metres.
@Suite("USD nested point instancers")
struct USDNestedInstancerTests {
  @Test(
    "an instancer of an instancer draws every instance of every level; a prototype outside them draws as itself"
  )
  func nestedInstancers() throws {
    let model = try USDBoundsRulesTests.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Cube "Brick" {
          double size = 2
      }
      def PointInstancer "Row" {
          point3f[] positions = [(0, 0, 0), (3, 0, 0)]
          int[] protoIndices = [0, 0]
          rel prototypes = </Brick>
      }
      def PointInstancer "Wall" {
          point3f[] positions = [(0, 5, 0), (0, 10, 0), (0, 15, 0)]
          int[] protoIndices = [0, 0, 0]
          rel prototypes = </Row>
      }
      """)
    // The brick itself, the row's 2 bricks, the wall's 3 rows of 2: 1 + 2 + 6 cubes.
    #expect(model.mesh.triangleCount == 9 * 12)
    // usd-core: (-1, -1, -1) to (4, 16, 1).
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(-1, -1, -1) && box.max == SIMD3(4, 16, 1), "\(box)")
  }

  @Test("instancers that instance each other are a cycle, refused by name")
  func instancerCycle() throws {
    #expect {
      _ = try USDBoundsRulesTests.load(
        """
        #usda 1.0
        def PointInstancer "A" {
            point3f[] positions = [(0, 0, 0)]
            int[] protoIndices = [0]
            rel prototypes = </B>
        }
        def PointInstancer "B" {
            point3f[] positions = [(1, 0, 0)]
            int[] protoIndices = [0]
            rel prototypes = </A>
        }
        """)
    } throws: { error in
      "\(error)".contains("(a cycle)")
    }
  }

  @Test(
    "an instancer whose instances cannot be computed draws nothing, as usd-core, with a warning naming why; the rest is drawn"
  )
  func unusableInstancer() throws {
    // usdGeom's instancer.usda and ComputeAtTime scenes hold such instancers: ARScene refused
    // the whole stage.
    let model = try USDBoundsRulesTests.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Cube "Kept" {
          double size = 2
      }
      def PointInstancer "Short" {
          point3f[] positions = [(0, 10, 0)]
          int[] protoIndices = [0, 0]
          rel prototypes = </Kept>
      }
      def PointInstancer "PastEnd" {
          point3f[] positions = [(0, 20, 0)]
          int[] protoIndices = [1]
          rel prototypes = </Kept>
      }
      """)
    #expect(model.mesh.triangleCount == 12)
    // usd-core: (-1, -1, -1) to (1, 1, 1), the cube alone.
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(repeating: -1) && box.max == SIMD3(repeating: 1), "\(box)")
    #expect(
      model.warnings.contains { $0.contains("/Short not drawn") && $0.contains("not one position for each") })
    #expect(
      model.warnings.contains { $0.contains("/PastEnd not drawn") && $0.contains("names prototype 1 of 1") })
  }

  @Test("an instancer inside a prototype that would place more than a million surfaces is refused by name")
  func flattenedSurfacesBounded() throws {
    // 1,001 instances of an instancer of 1,001 triangles, itself instanced: a hostile file's
    // nested scatters would be held in memory whole before the outer instancer placed them.
    let positions = "[" + (0..<1001).map { "(\($0), 0, 0)" }.joined(separator: ", ") + "]"
    let indices = "[" + Array(repeating: "0", count: 1001).joined(separator: ", ") + "]"
    let text = """
      #usda 1.0
      def Scope "Protos" {
          token visibility = "invisible"
          def Mesh "Tri" {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          }
          def PointInstancer "Row" {
              point3f[] positions = \(positions)
              int[] protoIndices = \(indices)
              rel prototypes = </Protos/Tri>
          }
          def PointInstancer "Field" {
              point3f[] positions = \(positions)
              int[] protoIndices = \(indices)
              rel prototypes = </Protos/Row>
          }
      }
      def PointInstancer "World" {
          point3f[] positions = [(0, 0, 0)]
          int[] protoIndices = [0]
          rel prototypes = </Protos/Field>
      }
      """
    #expect {
      _ = try USDBoundsRulesTests.load(text)
    } throws: { error in
      "\(error)".contains("/Protos/Field") && "\(error)".contains("more than 1000000")
    }
  }
}
