import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Textures of a bare layer file, as Blender writes a `.usda` or `.usdc` with a `textures/`
/// folder beside it (tinyusdz's `models/texturedcube.usda`): read from the layer's folder,
/// confined to it as every reference is, and a texture that cannot be read named in a warning
/// instead of dropped without a word.
@Suite("USD textures beside a layer file")
struct USDFolderTexturesTests {
  /// A textured cube whose diffuse texture is at `file` (as the layer writes it).
  static func stage(texture file: String) -> String {
    """
    #usda 1.0
    (
        metersPerUnit = 1
    )
    def Mesh "Cube" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [3]
        int[] faceVertexIndices = [0, 1, 2]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        texCoord2f[] primvars:UVMap = [(0, 0), (1, 0), (0, 1)] (
            interpolation = "vertex"
        )
        rel material:binding = </Looks/Material>
    }
    def Scope "Looks"
    {
        def Material "Material"
        {
            token outputs:surface.connect = </Looks/Material/Surface.outputs:surface>
            def Shader "Surface"
            {
                uniform token info:id = "UsdPreviewSurface"
                float3 inputs:diffuseColor.connect = </Looks/Material/Image.outputs:rgb>
                token outputs:surface
            }
            def Shader "Image"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @\(file)@
                float3 outputs:rgb
            }
        }
    }

    """
  }

  /// The model of the stage whose texture is at `file`, in a folder holding `textures/wood.png`
  /// (a real PNG) and, beside that folder, `secret.png`.
  /// A new folder with a real PNG at each of `files` (relative paths, folders made).
  static func site(withPNGsAt files: [String]) throws -> TemporaryFolder {
    let site = try TemporaryFolder()
    let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("obj/textures/checker board.png")))
    for file in files {
      let path = site.path + "/" + file
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try png.write(to: URL(fileURLWithPath: path))
    }
    return site
  }

  static func load(texture file: String) throws -> ModelAsset {
    let site = try Self.site(withPNGsAt: ["asset/textures/wood.png", "secret.png"])
    let path = site.path + "/asset/cube.usda"
    try stage(texture: file).write(toFile: path, atomically: true, encoding: .utf8)
    return try ModelAsset.load(path: path)
  }

  @Test(
    "a texture beside the layer is read, also when written with Windows' backslashes",
    arguments: [
      "./textures/wood.png", "textures/wood.png", #".\textures\wood.png"#,
    ])
  func beside(_ file: String) throws {
    let model = try Self.load(texture: file)
    #expect(model.embeddedImages.count == 1, "\(model.warnings)")
    #expect(model.mesh.materials.contains { $0.diffuseTexture != nil })
    #expect(!model.warnings.contains { $0.contains("texture") }, "\(model.warnings)")
  }

  @Test(
    "a texture missing, or outside the folder, is named in a warning and not read",
    arguments: [
      ("textures/missing.png", "no such file"), ("../secret.png", "outside the file's folder"),
    ])
  func notRead(_ file: String, _ why: String) throws {
    let model = try Self.load(texture: file)
    #expect(model.embeddedImages.isEmpty)
    #expect(
      model.warnings.contains {
        $0.contains("texture @\(file)@ of /Looks/Material/Surface not read") && $0.contains(why)
      },
      "\(model.warnings)")
  }

  @Test(
    "a texture is named relative to the layer that writes it: a sublayer in a subfolder reaches ../textures"
  )
  func anchoredToItsLayer() throws {
    let site = try Self.site(withPNGsAt: ["textures/wood.png"])
    try FileManager.default.createDirectory(atPath: site.path + "/parts", withIntermediateDirectories: true)
    try Self.stage(texture: "../textures/wood.png").write(
      toFile: site.path + "/parts/cube.usda", atomically: true, encoding: .utf8)
    try "#usda 1.0\n(\n    subLayers = [@./parts/cube.usda@]\n)\n".write(
      toFile: site.path + "/root.usda", atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: site.path + "/root.usda")
    #expect(model.embeddedImages.count == 1, "\(model.warnings)")
  }

  @Test(
    "a texture on an input ARScene does not texture (clearcoat) is named in a warning, not dropped silently")
  func unappliedTexture() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/clearcoat.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "token outputs:surface\n",
      with: "float inputs:clearcoat.connect = </Looks/Material/Image.outputs:r>\ntoken outputs:surface\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    #expect(
      model.warnings.contains {
        $0.contains("material /Looks/Material: its clearcoat texture is not applied")
      },
      "\(model.warnings)")
  }

  @Test(
    "a missing metallic-roughness texture is named once an input, in the same order on every run"
  )
  func missingMetallicRoughnessNamedAlike() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/orm.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "token outputs:surface\n",
      with: "float inputs:metallic.connect = </Looks/Material/ORM.outputs:b>\n"
        + "float inputs:roughness.connect = </Looks/Material/ORM.outputs:g>\ntoken outputs:surface\n"
    ).replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with: "float3 outputs:rgb\n}\ndef Shader \"ORM\"\n{\nuniform token info:id = \"UsdUVTexture\"\n"
        + "asset inputs:file = @textures/orm.png@\nfloat outputs:g\nfloat outputs:b\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let named = model.warnings.filter { $0.contains("@textures/orm.png@") }
    #expect(
      named.count == 2 && named[0].hasSuffix(": metallic drawn without it")
        && named[1].hasSuffix(": roughness drawn without it"), "\(model.warnings)")
  }

  @Test(
    "metallic and roughness each from a channel of a texture of its own, its scale for that channel the factor"
  )
  func channelMaps() throws {
    let site = try Self.site(withPNGsAt: ["textures/wood.png", "textures/metal.png", "textures/rough.png"])
    let path = site.path + "/maps.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "token outputs:surface\n",
      with: "float inputs:metallic.connect = </Looks/Material/Metal.outputs:r>\n"
        + "float inputs:roughness.connect = </Looks/Material/Rough.outputs:g>\ntoken outputs:surface\n"
    ).replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with:
        "float3 outputs:rgb\n}\ndef Shader \"Metal\"\n{\nuniform token info:id = \"UsdUVTexture\"\n"
        + "asset inputs:file = @textures/metal.png@\nfloat4 inputs:scale = (0.25, 1, 1, 1)\nfloat outputs:r\n}\n"
        + "def Shader \"Rough\"\n{\nuniform token info:id = \"UsdUVTexture\"\n"
        + "asset inputs:file = @textures/rough.png@\nfloat4 inputs:bias = (0, 0.5, 0, 0)\nfloat outputs:g\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let material = try #require(model.mesh.materials.first { $0.diffuseTexture != nil })
    #expect(material.metallicRoughnessTexture == nil)
    #expect(
      material.metallicTexture?.channel == "r"
        && material.metallicTexture?.path.hasSuffix("metal.png") == true)
    #expect(
      material.roughnessTexture?.channel == "g"
        && material.roughnessTexture?.path.hasSuffix("rough.png") == true)
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 0.25, roughness: 1))
    #expect(model.embeddedImages.count == 3)
    #expect(!model.warnings.contains { $0.contains("texture is not applied") }, "\(model.warnings)")
    // The roughness map's bias is named: only its scale is applied.
    #expect(model.warnings.contains { $0.contains("/Looks/Material/Rough's bias") }, "\(model.warnings)")
  }

  @Test(
    "of two texture-coordinate sets, the one the material's primvar reader names is drawn",
    arguments: [
      ("token inputs:varname = \"st\"", Float(1)),
      // usdzconvert's way: the reader's varname connected to the material's own input.
      ("token inputs:varname.connect = </Looks/Material.inputs:frame:stPrimvarName>", Float(1)),
      ("", Float(0)),  // no reader: the first set by name, UVMap
    ])
  func readerChoosesSet(_ varname: String, _ largest: Float) throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/sets.usda"
    let stage = Self.stage(texture: "textures/wood.png")
      .replacingOccurrences(
        of: "rel material:binding",
        with: "texCoord2f[] primvars:st = [(0, 0), (1, 0), (0, 1)] (\ninterpolation = \"vertex\"\n)\n"
          + "rel material:binding"
      )
      .replacingOccurrences(
        of: "primvars:UVMap = [(0, 0), (1, 0), (0, 1)]", with: "primvars:UVMap = [(0, 0), (0, 0), (0, 0)]"
      )
      .replacingOccurrences(
        of: "token outputs:surface.connect",
        with: "token inputs:frame:stPrimvarName = \"st\"\ntoken outputs:surface.connect"
      )
      .replacingOccurrences(
        of: "float3 outputs:rgb\n",
        with: "float3 outputs:rgb\nfloat2 inputs:st.connect = </Looks/Material/Reader.outputs:result>\n}\n"
          + "def Shader \"Reader\"\n{\nuniform token info:id = \"UsdPrimvarReader_float2\"\n\(varname)\n"
          + "float2 outputs:result\n")
    try stage.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    #expect(
      model.mesh.texcoords.map { $0.max() }.max() == largest, "\(model.mesh.texcoords) \(model.warnings)")
  }

  @Test(
    "an emissive texture whose coordinates pass through a UsdTransform2d of its own is named in a warning")
  func otherTextureTransform() throws {
    // Every texture of a material reads the coordinates the diffuse texture's transform turns;
    // another transform cannot be drawn too.
    let folder = try TemporaryFolder()
    let path = folder.path + "/transformed.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "token outputs:surface\n",
      with:
        "float3 inputs:emissiveColor.connect = </Looks/Material/Glow.outputs:rgb>\ntoken outputs:surface\n"
    ).replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with: "float3 outputs:rgb\n}\ndef Shader \"Glow\"\n{\nuniform token info:id = \"UsdUVTexture\"\n"
        + "asset inputs:file = @textures/wood.png@\nfloat3 outputs:rgb\n"
        + "float2 inputs:st.connect = </Looks/Material/Transform.outputs:result>\n}\n"
        + "def Shader \"Transform\"\n{\nuniform token info:id = \"UsdTransform2d\"\nfloat2 inputs:scale = (2, 2)\n"
        + "float2 outputs:result\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    #expect(
      model.warnings.contains {
        $0.contains("the texture coordinates of /Looks/Material/Glow pass through /Looks/Material/Transform")
      }, "\(model.warnings)")
  }

  @Test(
    "a texture's scale colours it (glTF's baseColorFactor beside a texture, as converters write it); a bias is warned about"
  )
  func textureScale() throws {
    let site = try Self.site(withPNGsAt: ["textures/wood.png"])
    let path = site.path + "/scaled.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with:
        "float3 outputs:rgb\nfloat4 inputs:scale = (0.5, 0.25, 1, 1)\nfloat4 inputs:bias = (0.1, 0, 0, 0)\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let textured = try #require(model.mesh.materials.first { $0.diffuseTexture != nil })
    #expect(textured.diffuse == SIMD3(0.5, 0.25, 1))
    #expect(
      model.warnings.contains { $0.contains("texture /Looks/Material/Image's bias") }, "\(model.warnings)")
  }

  @Test(
    "a UsdTransform2d on the diffuse texture's coordinates turns them as the glTF transform it was converted from; clamp wraps clamp"
  )
  func textureTransformApplied() throws {
    // usd-wg's TextureTransformTest "All" material, converted from Khronos' glTF sample whose
    // KHR_texture_transform is offset (-0.2, -0.1), rotation 0.3 rad, scale (1.5, 1.5).
    let site = try Self.site(withPNGsAt: ["textures/wood.png"])
    let path = site.path + "/all.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with: "float3 outputs:rgb\ntoken inputs:wrapS = \"clamp\"\ntoken inputs:wrapT = \"clamp\"\n"
        + "float2 inputs:st.connect = </Looks/Material/Transform.outputs:result>\n}\n"
        + "def Shader \"Transform\"\n{\nuniform token info:id = \"UsdTransform2d\"\n"
        + "float inputs:rotation = 17.188734\nfloat2 inputs:scale = (1.5, 1.5)\n"
        + "float2 inputs:translation = (0.24328034, -0.33300462)\nfloat2 outputs:result\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    #expect(!model.warnings.contains { $0.contains("UsdTransform2d") }, "\(model.warnings)")
    #expect(model.mesh.materials.contains { $0.diffuseTexture?.clamp == true })
    // glTF's transform of each corner's (s, 1 − t), drawn as (u, 1 − v).
    let (c, sn) = (cos(0.3), sin(0.3))
    for (k, st) in [SIMD2<Double>(0, 0), SIMD2(1, 0), SIMD2(0, 1)].enumerated() {
      let uv = SIMD2(st.x, 1 - st.y) * 1.5
      let turned = SIMD2(c * uv.x + sn * uv.y, -sn * uv.x + c * uv.y) + SIMD2(-0.2, -0.1)
      let drawn = model.mesh.texcoords[k]
      #expect(
        abs(Double(drawn.x) - turned.x) < 1e-5 && abs(Double(drawn.y) - (1 - turned.y)) < 1e-5,
        "\(k): \(drawn)")
    }
  }

  @Test(
    "roughness and metallic in one texture's green and blue, and opacity in the diffuse texture's alpha, are drawn"
  )
  func gltfStyleChannels() throws {
    // As glTF converts to USD: its metallic-roughness texture, and its base colour's alpha.
    let site = try Self.site(withPNGsAt: ["textures/wood.png", "textures/orm.png"])
    let path = site.path + "/channels.usda"
    try Self.stage(texture: "textures/wood.png").replacingOccurrences(
      of: "token outputs:surface\n",
      with: "float inputs:roughness.connect = </Looks/Material/ORM.outputs:g>\n"
        + "float inputs:metallic.connect = </Looks/Material/ORM.outputs:b>\n"
        + "float inputs:opacity.connect = </Looks/Material/Image.outputs:a>\ntoken outputs:surface\n"
    ).replacingOccurrences(
      of: "float3 outputs:rgb\n",
      with:
        "float3 outputs:rgb\nfloat outputs:a\n}\ndef Shader \"ORM\"\n{\nuniform token info:id = \"UsdUVTexture\"\n"
        + "asset inputs:file = @textures/orm.png@\nfloat4 inputs:scale = (1, 0.5, 1, 1)\nfloat outputs:g\nfloat outputs:b\n"
    ).write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let material = try #require(model.mesh.materials.first { $0.diffuseTexture != nil })
    #expect(material.metallicRoughnessTexture != nil)
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 1, roughness: 0.5))
    #expect(material.alphaMode == .blend)
    #expect(!model.warnings.contains { $0.contains("not applied") }, "\(model.warnings)")
  }
}
