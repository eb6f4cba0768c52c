import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Models whose points are finite where they are read but not once placed: a transform or a
/// size that overflows `Double`, or vertices past what a `Float` offset from the model's centre
/// holds. Each is refused by name, where it once drew nothing, hit nothing and failed to report
/// its bounds as JSON.
@Suite("Models that overflow through their transforms")
struct ModelOverflowTests {
  /// Loading `text` as a file named `name` fails, naming the file and the overflow.
  private func expectRefused(_ text: String, as name: String) throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(text, to: name)
    #expect {
      _ = try ModelAsset.load(path: path)
    } throws: { error in
      "\(error)".contains(path) && "\(error)".contains("reach past what a vertex holds")
    }
  }

  @Test("an implicit shape of sizes near the largest double (its vertices infinite, or not numbers)")
  func implicitSizes() throws {
    try expectRefused(
      """
      #usda 1.0
      def Capsule "Huge"
      {
          double radius = 1e308
          double height = 1e308
      }
      """, as: "capsule.usda")
    try expectRefused(
      """
      #usda 1.0
      def Capsule_1 "Leaning"
      {
          double radiusTop = 0
          double radiusBottom = 1e308
          double height = 1e-300
      }
      """, as: "leaning.usda")
  }

  @Test(
    "a glTF node's matrix of 1e308s: one vertex's products overflow with opposite signs (not a number), the others stay finite"
  )
  func notANumber() throws {
    // Three points, (1e10, −1e10, 0) (0, 0, 0) (0, 0, 1), in a base64 buffer: the first goes to
    // (1e318 − 1e318, …), not a number, which no box's comparison takes in.
    try expectRefused(
      """
      {"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"scene":0,
       "nodes":[{"mesh":0,"matrix":[1e308,1e308,0,0, 1e308,1e308,0,0, 0,0,1,0, 0,0,0,1]}],
       "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
       "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,-1e10,0],"max":[1e10,0,1]}],
       "bufferViews":[{"buffer":0,"byteLength":36}],
       "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,+QIVUPkCFdAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIA/"}]}
      """, as: "sheared.gltf")
  }

  @Test("a glTF node scaled by 1e308: finite doubles, but past a Float offset's reach")
  func gltfNodeScale() throws {
    // One triangle, (0,0,0) (1,0,0) (0,1,0), in a base64 buffer.
    try expectRefused(
      """
      {"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"scene":0,
       "nodes":[{"mesh":0,"scale":[1e308,1e308,1e308]}],
       "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
       "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
       "bufferViews":[{"buffer":0,"byteLength":36}],
       "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]}
      """, as: "scaled.gltf")
  }

  @Test("the same triangle scaled by 1e30 and placed 1e7 m away loads: large, finite models are not refused")
  func largeButFinite() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def Xform "Far"
      {
          double3 xformOp:translate = (1e7, 0, 0)
          double3 xformOp:scale = (1e30, 1e30, 1e30)
          uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
          def Mesh "Triangle"
          {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          }
      }
      """, to: "far.usda")
    let bounds = try #require(ModelStatistics(try ModelAsset.load(path: path)).bounds)
    #expect(abs(bounds.max[0] - 1e30) < 1e24 && bounds.min[0] == 1e7, "\(bounds)")
  }
}
