import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Textures whose image only an extension holds (KTX2 through `KHR_texture_basisu`, as Khronos
/// and model-viewer recommend for the web; WebP): the geometry reads, even when the extension
/// is required; an ETC1S KTX2 image is drawn, other KTX2 codings and WebP are left out with a
/// warning.
@Suite("glTF images in KTX2 and WebP")
struct GLTFImageExtensionTests {
  /// `asset`'s triangle drawn with a material whose base colour is texture 0.
  static func bindTexture0(_ asset: inout GLTFTestAsset) {
    asset.json["materials"] = [["pbrMetallicRoughness": ["baseColorTexture": ["index": 0]]]]
    var meshes = asset.json["meshes"] as! [[String: Any]]
    var primitive = (meshes[0]["primitives"] as! [[String: Any]])[0]
    primitive["material"] = 0
    meshes[0]["primitives"] = [primitive]
    asset.json["meshes"] = meshes
  }

  /// A data URI of a KTX2 fixture (Tests/Fixtures/images/ktx2).
  static func ktx2URI(_ name: String) throws -> String {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("images/ktx2/" + name)))
    return "data:image/ktx2;base64," + bytes.base64EncodedString()
  }

  @Test(
    "a required KHR_texture_basisu (UASTC) or EXT_texture_webp: the triangle reads, the texture is said to be left out",
    arguments: [
      ("KHR_texture_basisu", "image/ktx2", "photo-uastc.ktx2"),
      ("EXT_texture_webp", "image/webp", "tex.webp"),
    ])
  func geometryReads(_ extensionName: String, _ mime: String, _ uri: String) throws {
    // A KTX2 header of VK_FORMAT_R8G8B8A8_UNORM (37): a format ARScene does not decode.
    var plain = [UInt8](repeating: 0, count: 160)
    plain.replaceSubrange(
      0..<12, with: [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A])
    plain[12] = 37
    let uri = uri.hasSuffix(".ktx2") ? "data:image/ktx2;base64," + Data(plain).base64EncodedString() : uri
    var asset = GLTFTestAsset.triangle()
    asset.json["extensionsUsed"] = [extensionName]
    asset.json["extensionsRequired"] = [extensionName]
    asset.json["images"] = [["uri": uri, "mimeType": mime]]
    asset.json["textures"] = [["extensions": [extensionName: ["source": 0]]]]
    Self.bindTexture0(&asset)
    let model = try asset.load(asset.glb)
    #expect(model.mesh.triangleCount == 1)
    #expect(model.mesh.materials.allSatisfy { $0.diffuseTexture == nil })
    #expect(
      model.warnings.contains { $0.contains("/textures/0") && $0.contains("drawn without it") },
      "\(model.warnings)")
  }

  @Test(
    "a KHR_texture_basisu ETC1S or UASTC image, its texture's only source, is the material's texture",
    arguments: ["photo-etc1s.ktx2", "photo-uastc.ktx2"])
  func basisuDrawn(file: String) throws {
    var asset = GLTFTestAsset.triangle()
    asset.json["extensionsUsed"] = ["KHR_texture_basisu"]
    asset.json["extensionsRequired"] = ["KHR_texture_basisu"]
    asset.json["images"] = [["uri": try Self.ktx2URI(file), "mimeType": "image/ktx2"]]
    asset.json["textures"] = [["extensions": ["KHR_texture_basisu": ["source": 0]]]]
    Self.bindTexture0(&asset)
    let model = try asset.load(asset.glb)
    let texture = try #require(model.mesh.materials.compactMap(\.diffuseTexture).first)
    #expect(model.embeddedImages[texture.path]?.starts(with: [0xAB, 0x4B, 0x54, 0x58]) == true)
    #expect(model.warnings.isEmpty, "\(model.warnings)")
  }
}
