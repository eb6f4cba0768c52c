import Foundation
import Testing

@testable import ARMesh

/// Textures whose image only an extension holds (KTX2 through `KHR_texture_basisu`, as Khronos
/// and model-viewer recommend for the web; WebP): the geometry reads, even when the extension
/// is required, and the texture is left out with a warning.
@Suite("glTF images in KTX2 and WebP")
struct GLTFImageExtensionTests {
  @Test(
    "a required KHR_texture_basisu or EXT_texture_webp: the triangle reads, the texture is said to be left out",
    arguments: [
      ("KHR_texture_basisu", "image/ktx2", "tex.ktx2"), ("EXT_texture_webp", "image/webp", "tex.webp"),
    ])
  func geometryReads(_ extensionName: String, _ mime: String, _ uri: String) throws {
    var asset = GLTFTestAsset.triangle()
    asset.json["extensionsUsed"] = [extensionName]
    asset.json["extensionsRequired"] = [extensionName]
    asset.json["images"] = [["uri": uri, "mimeType": mime]]
    asset.json["textures"] = [["extensions": [extensionName: ["source": 0]]]]
    asset.json["materials"] = [["pbrMetallicRoughness": ["baseColorTexture": ["index": 0]]]]
    var meshes = asset.json["meshes"] as! [[String: Any]]
    var primitive = (meshes[0]["primitives"] as! [[String: Any]])[0]
    primitive["material"] = 0
    meshes[0]["primitives"] = [primitive]
    asset.json["meshes"] = meshes
    let model = try asset.load(asset.glb)
    #expect(model.mesh.triangleCount == 1)
    #expect(model.mesh.materials.allSatisfy { $0.diffuseTexture == nil })
    #expect(
      model.warnings.contains { $0.contains("/textures/0") && $0.contains("drawn without it") },
      "\(model.warnings)")
  }
}
