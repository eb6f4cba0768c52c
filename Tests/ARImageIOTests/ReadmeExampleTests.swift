import ARImage
import ARImageIO
import ARMesh
import ARTestSupport
import Foundation
import Testing

/// Close to the example of ARImageIO's Getting Started article (ARImageIO.docc).
@Test("README assets example")
func readmeAssetsExample() throws {
  let asset = try OBJAsset.load(path: Fixtures.path("obj/textured.obj"))  // OBJ + MTL + texture check
  let mesh = asset.mesh  // indexed triangles, unit normals, uv, submeshes by material
  let texture = try ImageFile.readRGBA8(mesh.materials[0].diffuseTexture!.path)  // PNG or JPEG
  let linear = texture.linear  // sRGB → linear light for shading
  let path = NSTemporaryDirectory() + "readme-texture-\(UInt32.random(in: 0 ... .max)).png"
  defer { try? FileManager.default.removeItem(atPath: path) }
  try ImageFile.writePNG(linear.sRGB8, to: path)  // atomic write

  #expect(mesh.triangleCount == 2 && mesh.texcoords.count == mesh.vertexCount)
  #expect(try ImageFile.readRGBA8(path) == texture)
}
