import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Textures whose image only an extension holds (KTX2 through `KHR_texture_basisu`, as Khronos
/// and model-viewer recommend for the web; WebP; AVIF): the geometry reads, even when the
/// extension is required; ETC1S and UASTC KTX2 images and WebP images are drawn, other KTX2
/// codings and AVIF are left out with a warning.
@Suite("glTF images in KTX2, WebP and AVIF")
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
    "a required KHR_texture_basisu (a KTX2 format not decoded) or EXT_texture_avif: the triangle reads, the texture is said to be left out",
    arguments: [
      ("KHR_texture_basisu", "image/ktx2", "photo-uastc.ktx2"),
      ("EXT_texture_avif", "image/avif", "tex.avif"),
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

  /// The diffuse textures' encoded images of a Blender WebP fixture (Tests/Fixtures/gltf/webp),
  /// by material name, and the model.
  static func blenderImages(_ file: String) throws -> (ModelAsset, [String: [UInt8]]) {
    try images(ofModelAt: Fixtures.path("gltf/webp/" + file))
  }

  /// The diffuse textures' encoded images of the model at `path`, by material name.
  static func images(ofModelAt path: String) throws -> (ModelAsset, [String: [UInt8]]) {
    let model = try ModelAsset.load(path: path)
    var images: [String: [UInt8]] = [:]
    for material in model.mesh.materials {
      let texture = try #require(material.diffuseTexture, "\(material.name) has no texture")
      images[material.name] =
        try model.embeddedImages[texture.path]
        ?? Array(
          Data(contentsOf: URL(fileURLWithPath: texture.path)))
    }
    return (model, images)
  }

  static func isWebP(_ bytes: [UInt8]?) -> Bool { bytes.map { EncodedImageKind($0) == .webp } ?? false }

  @Test(
    "Blender's EXT_texture_webp exports: WebP-only textures (embedded or .webp files) are the materials' textures, without a warning",
    arguments: ["webp_only.glb", "files/webp_files.gltf"])
  func blenderWebP(file: String) throws {
    let (model, images) = try Self.blenderImages(file)
    #expect(model.triangleCount == 4)
    #expect(images.count == 2 && images.values.allSatisfy(Self.isWebP), "\(images.keys)")
    #expect(model.warnings.isEmpty, "\(model.warnings)")
    let disc = try #require(model.mesh.materials.first { $0.name.hasPrefix("Disc") })
    #expect(disc.alphaMode == .blend)
  }

  @Test("a texture with a core PNG beside its WebP draws the PNG (decoded exactly)")
  func blenderFallback() throws {
    let (model, images) = try Self.blenderImages("png_and_webp.glb")
    #expect(images.count == 2 && images.values.allSatisfy { EncodedImageKind($0) == .png })
    #expect(model.warnings.isEmpty, "\(model.warnings)")
  }

  @Test("a converted model keeps its WebP textures through EXT_texture_webp (required), and its alpha mode")
  func webpConverted() throws {
    let (model, images) = try Self.blenderImages("webp_only.glb")
    let glb = try GLTFWriter(model).glb()
    // The JSON chunk: its length is the little-endian word at byte 12, its text from byte 20.
    let length = glb[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(glb[20..<(20 + length)])) as? [String: Any])
    #expect(document["extensionsRequired"] as? [String] == ["EXT_texture_webp"])
    // Blender's export marks its materials double-sided; the converted file keeps it.
    #expect(model.mesh.materials.contains { $0.isDoubleSided })
    let written = (document["materials"] as? [[String: Any]] ?? []).compactMap { $0["doubleSided"] as? Bool }
    #expect(written.contains(true), "\(document["materials"] ?? [])")
    let folder = try TemporaryFolder()
    let path = folder.path + "/converted.glb"
    try Data(glb).write(to: URL(fileURLWithPath: path))
    let (again, convertedImages) = try Self.images(ofModelAt: path)
    #expect(again.warnings.isEmpty, "\(again.warnings)")
    #expect(Set(convertedImages.values) == Set(images.values))
    #expect(again.mesh.materials.contains { $0.alphaMode == .blend })
  }
}
