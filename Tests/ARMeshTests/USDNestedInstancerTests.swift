import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Point instancers as Hydra draws them and usd-core's BBoxCache bounds them, beyond one level:
/// an instancer whose prototype is another instancer (Houdini's and Pixar's nested scatters,
/// usdImaging's nestedPointInstancers.usda), a prototype outside the instancer also drawn as
/// itself, and a cycle of instancers refused by name. Bounds are usd-core 26.11's, metres.
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
}
