import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// MaterialX surfaces beyond RealityKit's and Standard Surface: OpenPBR (Blender's MaterialX
/// export) and glTF PBR, each drawn from its constants with its node definition's fallbacks
/// (MaterialX's `open_pbr_surface.mtlx` and `gltf_pbr.mtlx`); and opacity as Storm cuts it.
@Suite("USD MaterialX surfaces")
struct USDMaterialXSurfacesTests {
  /// A quad bound to a material whose `outputs:mtlx:surface` (or `output`) is a shader of `id`
  /// with `inputs` (lines of USD text).
  static func model(id: String, inputs: String, output: String = "mtlx:surface") throws -> ModelAsset {
    let stage =
      USDMaterialXImageTests.quad(boundTo: "/Looks/Material") + """
        def Scope "Looks"
        {
            def Material "Material"
            {
                token outputs:\(output).connect = </Looks/Material/Surface.outputs:out>
                def Shader "Surface"
                {
                    uniform token info:id = "\(id)"
                    \(inputs)
                    token outputs:out
                }
            }
        }

        """
    return try USDMaterialXImageTests.load(stage)
  }

  /// The material of ``model(id:inputs:output:)``'s quad, and the model's warnings.
  static func material(id: String, inputs: String, output: String = "mtlx:surface") throws -> (
    Material, [String]
  ) {
    let model = try Self.model(id: id, inputs: inputs, output: output)
    return (try USDMaterialXImageTests.material(model), model.warnings)
  }

  @Test("OpenPBR unauthored: its node definition's fallbacks (base 0.8, roughness 0.3, no emission)")
  func openPBRFallbacks() throws {
    let (material, warnings) = try Self.material(id: "ND_open_pbr_surface_surfaceshader", inputs: "")
    #expect(material.diffuse == SIMD3(repeating: 0.8), "\(material)")
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 0, roughness: 0.3))
    #expect(material.emissive == .zero && material.opacity == 1 && material.alphaMode == .opaque)
    #expect(!warnings.contains { $0.contains("Material") }, "\(warnings)")
  }

  @Test("OpenPBR as Blender writes it: weights multiply colours, metalness, opacity and a normal map")
  func openPBR() throws {
    let (material, warnings) = try Self.material(
      id: "ND_open_pbr_surface_surfaceshader",
      inputs: """
        float inputs:base_weight = 0.5
                        color3f inputs:base_color = (1, 0.5, 0)
                        float inputs:base_metalness = 1
                        float inputs:specular_roughness = 0.25
                        float inputs:emission_luminance = 0.5
                        color3f inputs:emission_color = (0, 1, 0)
                        float inputs:geometry_opacity = 0.4
                        float inputs:coat_weight = 1
        """)
    #expect(material.diffuse == SIMD3(0.5, 0.25, 0), "\(material)")
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 1, roughness: 0.25))
    #expect(material.emissive == SIMD3(0, 0.5, 0))
    #expect(material.opacity == 0.4 && material.alphaMode == .blend)
    #expect(!warnings.contains { $0.contains("Material") }, "\(warnings)")
  }

  @Test("glTF PBR unauthored: glTF's fallbacks (white, metallic 1, roughness 1, opaque)")
  func glTFFallbacks() throws {
    let (material, _) = try Self.material(id: "ND_gltf_pbr_surfaceshader", inputs: "")
    #expect(material.diffuse == SIMD3(repeating: 1), "\(material)")
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 1, roughness: 1))
    #expect(material.emissive == .zero && material.alphaMode == .opaque)
  }

  @Test(
    "glTF PBR's alpha as its alpha_mode says: ignored when opaque, cut at alpha_cutoff (0.5 unset), blended",
    arguments: [
      ("", Material.AlphaMode.opaque, Float(1)),
      ("int inputs:alpha_mode = 0", .opaque, 1),
      ("int inputs:alpha_mode = 1", .mask(cutoff: 0.5), 0.3),
      ("int inputs:alpha_mode = 1\n float inputs:alpha_cutoff = 0.2", .mask(cutoff: 0.2), 0.3),
      ("int inputs:alpha_mode = 2", .blend, 0.3),
    ])
  func glTFAlpha(mode: String, expected: Material.AlphaMode, opacity: Float) throws {
    let (material, _) = try Self.material(
      id: "ND_gltf_pbr_surfaceshader",
      inputs: """
        float inputs:alpha = 0.3
        color3f inputs:emissive = (1, 0, 0)
        float inputs:emissive_strength = 2
        float inputs:metallic = 0
        \(mode)
        """)
    #expect(material.alphaMode == expected && material.opacity == opacity, "\(material)")
    #expect(material.emissive == SIMD3(2, 0, 0))
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 0, roughness: 1))
  }

  @Test(
    "unlit surfaces, RealityKit's (Reality Composer Pro's Unlit Surface) and MaterialX's: the colour drawn as it is",
    arguments: [
      (
        "ND_realitykit_unlit_surfaceshader",
        "color3f inputs:color = (0.2, 0.4, 0.6)\n float inputs:opacity = 0.5"
      ),
      (
        "ND_surface_unlit",
        "float inputs:emission = 0.5\n color3f inputs:emission_color = (0.4, 0.8, 1.2)\n float inputs:opacity = 0.5"
      ),
    ])
  func unlit(id: String, inputs: String) throws {
    let (material, warnings) = try Self.material(id: id, inputs: inputs)
    #expect(material.isUnlit && material.diffuse == SIMD3(0.2, 0.4, 0.6), "\(material)")
    #expect(material.emissive == .zero && material.opacity == 0.5 && material.alphaMode == .blend)
    #expect(!warnings.contains { $0.contains("Material") }, "\(warnings)")
  }

  @Test("an unlit surface converted to GLB stays unlit (KHR_materials_unlit, used, not required)")
  func unlitConverted() throws {
    let model = try Self.model(
      id: "ND_realitykit_unlit_surfaceshader", inputs: "color3f inputs:color = (1, 0, 0)")
    let glb = try GLTFWriter(model).glb()
    let length = glb[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(glb[20..<(20 + length)])) as? [String: Any])
    #expect(document["extensionsUsed"] as? [String] == ["KHR_materials_unlit"])
    #expect(document["extensionsRequired"] == nil)
    let folder = try TemporaryFolder()
    let path = folder.path + "/unlit.glb"
    try Data(glb).write(to: URL(fileURLWithPath: path))
    let again = try ModelAsset.load(path: path)
    #expect(again.mesh.materials.allSatisfy { $0.isUnlit }, "\(again.mesh.materials)")
  }

  @Test("RealityKit's unlit surface unauthored: white, opaque; its opacity cut at opacityThreshold")
  func unlitFallbacks() throws {
    let (plain, _) = try Self.material(id: "ND_realitykit_unlit_surfaceshader", inputs: "")
    #expect(plain.isUnlit && plain.diffuse == SIMD3(repeating: 1) && plain.alphaMode == .opaque, "\(plain)")
    let (cut, _) = try Self.material(
      id: "ND_realitykit_unlit_surfaceshader",
      inputs: "float inputs:opacity = 0.3\n float inputs:opacityThreshold = 0.5")
    #expect(cut.alphaMode == .mask(cutoff: 0.5) && cut.opacity == 0.3, "\(cut)")
  }

  @Test(
    "UsdPreviewSurface's opacity cut at its threshold as Storm cuts it: a constant below draws nothing, above opaque",
    arguments: [(0.3, Float(0.3)), (0.7, 0.7)])
  func previewThreshold(opacity: Double, kept: Float) throws {
    let (material, _) = try Self.material(
      id: "UsdPreviewSurface",
      inputs: "float inputs:opacity = \(opacity)\n float inputs:opacityThreshold = 0.5", output: "surface")
    // The renderer discards where opacity is below the cutoff and draws the rest opaque.
    #expect(material.alphaMode == .mask(cutoff: 0.5) && material.opacity == kept, "\(material)")
  }

  @Test(
    "a UsdPreviewSurface inside a node graph, as Houdini exports it beside a MaterialX surface, is the one drawn"
  )
  func previewInNodeGraph() throws {
    let stage =
      USDMaterialXImageTests.quad(boundTo: "/Looks/Material") + """
        def Scope "Looks"
        {
            def Material "Material"
            {
                token outputs:mtlx:surface.connect = </Looks/Material/MaterialX/Surface.outputs:out>
                token outputs:surface.connect = </Looks/Material/Preview.outputs:surface>
                def NodeGraph "MaterialX"
                {
                    def Shader "Surface"
                    {
                        uniform token info:id = "ND_open_pbr_surface_surfaceshader"
                        color3f inputs:base_color = (0, 0, 1)
                        token outputs:out
                    }
                }
                def NodeGraph "Preview"
                {
                    token outputs:surface.connect = </Looks/Material/Preview/Surface.outputs:surface>
                    def Shader "Surface"
                    {
                        uniform token info:id = "UsdPreviewSurface"
                        color3f inputs:diffuseColor = (1, 0, 0)
                        token outputs:surface
                    }
                }
            }
        }

        """
    let model = try USDMaterialXImageTests.load(stage)
    let material = try USDMaterialXImageTests.material(model)
    #expect(material.diffuse == SIMD3(1, 0, 0), "\(material) \(model.warnings)")
  }

  @Test("UsdPreviewSurface without opacity: opaque (a diffuse texture's alpha counts only when connected)")
  func previewOpaque() throws {
    let (material, _) = try Self.material(id: "UsdPreviewSurface", inputs: "", output: "surface")
    #expect(material.alphaMode == .opaque && material.opacity == 1, "\(material)")
  }
}

/// A `UsdUVTexture`'s `sourceColorSpace`: ARScene decodes colour maps as sRGB and data maps as
/// linear (`auto` for 8-bit images); a declaration against that is named, not silently ignored.
@Suite("USD texture colour spaces")
struct USDColourSpaceTests {
  @Test(
    "a diffuse map declared raw, or a roughness map declared sRGB, is named; the usual declarations are not",
    arguments: [
      ("raw", "raw", ["diffuseColor"]), ("sRGB", "sRGB", ["roughness"]), ("sRGB", "raw", []),
      ("auto", "auto", []),
    ])
  func declared(diffuse: String, roughness: String, named: [String]) throws {
    let stage =
      USDMaterialXImageTests.quad(boundTo: "/Looks/Material") + """
        def Scope "Looks"
        {
            def Material "Material"
            {
                token outputs:surface.connect = </Looks/Material/Surface.outputs:surface>
                def Shader "Surface"
                {
                    uniform token info:id = "UsdPreviewSurface"
                    float3 inputs:diffuseColor.connect = </Looks/Material/Image.outputs:rgb>
                    float inputs:roughness.connect = </Looks/Material/Rough.outputs:r>
                    token outputs:surface
                }
                def Shader "Image"
                {
                    uniform token info:id = "UsdUVTexture"
                    asset inputs:file = @textures/wood.png@
                    token inputs:sourceColorSpace = "\(diffuse)"
                    float3 outputs:rgb
                }
                def Shader "Rough"
                {
                    uniform token info:id = "UsdUVTexture"
                    asset inputs:file = @textures/wood.png@
                    token inputs:sourceColorSpace = "\(roughness)"
                    float outputs:r
                }
            }
        }

        """
    let model = try USDMaterialXImageTests.load(stage)
    let warned = ["diffuseColor", "roughness"].filter { input in
      model.warnings.contains { $0.contains("feeding \(input) declares sourceColorSpace") }
    }
    #expect(warned == named, "\(model.warnings)")
    let material = try USDMaterialXImageTests.material(model)
    #expect(material.diffuseTexture != nil && material.roughnessTexture != nil, "\(model.warnings)")
  }
}

/// The USD working group's conversion of Khronos' AlphaBlendModeTest
/// (Tests/Fixtures/usd/alpha-blend-mode/SOURCE.txt): each material's alpha as Storm and glTF's
/// reference draw it.
@Suite("USD alpha modes of a real conversion")
struct USDAlphaBlendModeTests {
  @Test(
    "an unconnected opacity is opaque whatever the texture's alpha; a connected one blends or cuts at its threshold"
  )
  func alphaModes() throws {
    // Stand-ins for its four PNGs (not copied), at the paths its textures name.
    let site = try USDFolderTexturesTests.site(
      withPNGsAt: [
        "image0_e93a912e744ba8675c680a67d486a70c", "image1_b7b61473c6009b01dfe9c6950d4d5ed6",
        "image2_d151f95487c02f2a13820ace88f0370d", "image3_801ab6939d4d9c35de01996b52bc1650",
      ].map { "0/AlphaBlendModeTest_\($0).png" })
    let path = site.path + "/AlphaBlendModeTest.usd"
    try FileManager.default.copyItem(
      atPath: Fixtures.path("usd/alpha-blend-mode/AlphaBlendModeTest.usd"), toPath: path)
    let model = try ModelAsset.load(path: path)
    let materials = Dictionary(
      model.mesh.materials.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let expected: [(String, Material.AlphaMode)] = [
      ("Mat_Opaque__165642", .opaque), ("Mat_Bed__165602", .opaque), ("Mat_Blend__165610", .blend),
      ("Mat_Cutoff_75__165626", .mask(cutoff: 0.75)), ("Mat_Cutoff_Default__165634", .mask(cutoff: 0.5)),
      ("Mat_Cutoff_25__165618", .mask(cutoff: 0.25)),
    ]
    for (name, mode) in expected {
      let material = try #require(materials[name], "\(materials.keys.sorted())")
      #expect(material.alphaMode == mode && material.opacity == 1, "\(name): \(material)")
      #expect(material.diffuseTexture != nil, "\(name): \(model.warnings)")
    }
  }
}
