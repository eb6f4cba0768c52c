import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// A MaterialX surface's base colour read from an image node, as Reality Composer Pro's shader
/// graphs write it: RealityKit's `RealityKitTexture2D` or MaterialX's `image`, inside a node
/// graph or beside the surface, its file a constant or the material's input. Drawn as the same
/// texture through a `UsdPreviewSurface` is (same image, same coordinates); what ARScene cannot
/// draw so is named in a warning and drawn with the constant.
@Suite("USD MaterialX image nodes")
struct USDMaterialXImageTests {
  /// A layer's header and a unit quad with texture coordinates bound to the material at
  /// `material`.
  static func quad(boundTo material: String) -> String {
    """
    #usda 1.0
    (
        metersPerUnit = 1
    )
    def Mesh "Quad" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
        texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
            interpolation = "vertex"
        )
        rel material:binding = <\(material)>
    }

    """
  }

  /// A quad bound to a material whose surface's base colour reads `node` (a `Shader` prim's
  /// text, named `Image`), inside a node graph `Graph` that passes it out as `outputs:colour`;
  /// the material has an asset input `inputs:picture` holding `textures/wood.png`.
  static func stage(node: String, surface: String = "ND_realitykit_pbr_surfaceshader") -> String {
    let input = surface.hasPrefix("ND_realitykit") ? "baseColor" : "diffuseColor"
    return Self.quad(boundTo: "/Looks/Material") + """
      def Scope "Looks"
      {
          def Material "Material"
          {
              asset inputs:picture = @textures/wood.png@
              token outputs:mtlx:surface.connect = </Looks/Material/Surface.outputs:out>
              def Shader "Surface"
              {
                  uniform token info:id = "\(surface)"
                  color3f inputs:\(input) = (0.2, 0.3, 0.4)
                  color3f inputs:\(input).connect = </Looks/Material/Graph.outputs:colour>
                  token outputs:out
              }
              def NodeGraph "Graph"
              {
                  color3f outputs:colour.connect = </Looks/Material/Graph/Image.outputs:out>
                  def Shader "UV"
                  {
                      uniform token info:id = "ND_texcoord_vector2"
                      int inputs:index = 0
                      float2 outputs:out
                  }
                  \(node)
              }
          }
      }

      """
  }

  /// RealityKit's image node reading the material's file at the texture coordinates node's,
  /// with `extra` inputs.
  static func realityKitImage(_ extra: String = "") -> String {
    """
    def Shader "Image"
                {
                    uniform token info:id = "ND_RealityKitTexture2D_color3"
                    asset inputs:file.connect = </Looks/Material.inputs:picture>
                    float2 inputs:texcoord.connect = </Looks/Material/Graph/UV.outputs:out>
                    string inputs:mag_filter = "linear"
                    color3f inputs:default = (1, 0, 1)
                    \(extra)
                    color3f outputs:out
                }
    """
  }

  /// The model of `stage` in a folder holding `textures/wood.png`.
  static func load(_ stage: String) throws -> ModelAsset {
    let site = try USDFolderTexturesTests.site(withPNGsAt: ["textures/wood.png"])
    let path = site.path + "/graph.usda"
    try stage.write(toFile: path, atomically: true, encoding: .utf8)
    return try ModelAsset.load(path: path)
  }

  /// The material of the quad's one submesh.
  static func material(_ model: ModelAsset) throws -> Material {
    let submesh = try #require(model.mesh.submeshes.first)
    return model.mesh.materials[submesh.material]
  }

  @Test(
    "RealityKit's image node in a node graph, its file the material's input: the base colour texture, drawn as a UsdPreviewSurface draws it"
  )
  func realityKitImage() throws {
    let model = try Self.load(Self.stage(node: Self.realityKitImage()))
    let material = try Self.material(model)
    #expect(material.diffuseTexture?.path.hasSuffix("textures/wood.png") == true, "\(material)")
    #expect(material.diffuse == SIMD3(1, 1, 1) && material.diffuseTexture?.clamp == false)
    #expect(model.embeddedImages.count == 1)
    #expect(!model.warnings.contains { $0.contains("baseColor") }, "\(model.warnings)")
    // The same quad and image through a UsdPreviewSurface: the same coordinates reach the texture.
    let preview = try USDFolderTexturesTests.site(withPNGsAt: ["textures/wood.png"])
    let path = preview.path + "/cube.usda"
    try USDFolderTexturesTests.stage(texture: "textures/wood.png").write(
      toFile: path, atomically: true, encoding: .utf8)
    let reference = try ModelAsset.load(path: path)
    for corner in 0..<3 {
      let st: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1)]
      let ours = try #require(
        model.mesh.positions.indices.first {
          abs(Double(model.mesh.positions[$0].x) - st[corner].x) < 1e-6
            && abs(Double(model.mesh.positions[$0].y) - st[corner].y) < 1e-6
        })
      let theirs = try #require(
        reference.mesh.positions.indices.first {
          abs(Double(reference.mesh.positions[$0].x) - st[corner].x) < 1e-6
            && abs(Double(reference.mesh.positions[$0].y) - st[corner].y) < 1e-6
        })
      #expect(model.mesh.texcoords[ours] == reference.mesh.texcoords[theirs])
    }
  }

  @Test("MaterialX's image node beside MaterialX's UsdPreviewSurface, clamped on both axes")
  func materialXImage() throws {
    let node = """
      def Shader "Image"
                  {
                      uniform token info:id = "ND_image_color3"
                      asset inputs:file = @textures/wood.png@
                      string inputs:uaddressmode = "clamp"
                      string inputs:vaddressmode = "clamp"
                      color3f outputs:out
                  }
      """
    let model = try Self.load(Self.stage(node: node, surface: "ND_UsdPreviewSurface_surfaceshader"))
    let material = try Self.material(model)
    #expect(material.diffuseTexture?.path.hasSuffix("textures/wood.png") == true, "\(model.warnings)")
    #expect(material.diffuseTexture?.clamp == true)
  }

  @Test(
    "what ARScene does not draw is named and drawn with the constant",
    arguments: refusedImageNodes)
  func refused(node: String, named: String) throws {
    let model = try Self.load(Self.stage(node: node))
    let material = try Self.material(model)
    #expect(material.diffuseTexture == nil)
    #expect(material.diffuse == SIMD3(0.2, 0.3, 0.4))
    #expect(
      model.warnings.contains { $0.contains("image node /Looks/Material/Graph/Image") && $0.contains(named) },
      "\(model.warnings)")
  }

  @Test(
    "metallic, roughness and occlusion from one-channel images, the normal through a normal-map decode, emission from a colour image"
  )
  func otherMaps() throws {
    func image(_ name: String, _ type: String, _ output: String) -> String {
      """
      def Shader "\(name)"
                  {
                      uniform token info:id = "ND_RealityKitTexture2D_\(type)"
                      asset inputs:file = @textures/\(name).png@
                      \(output) outputs:out
                  }
      """
    }
    let nodes = [
      image("Metal", "float", "float"), image("Rough", "float", "float"),
      image("Occlusion", "float", "float"),
      image("Glow", "color3", "color3f"), image("Bumps", "vector3", "float3"),
      "def Shader \"Decode\"\n{\nuniform token info:id = \"ND_normal_map_decode\"\n"
        + "float3 inputs:in.connect = </Looks/Material/Graph/Bumps.outputs:out>\nfloat3 outputs:out\n}",
    ].joined(separator: "\n")
    let wiring = [
      ("float", "metallic", "Metal"), ("float", "roughness", "Rough"),
      ("float", "ambientOcclusion", "Occlusion"),
      ("color3f", "emissiveColor", "Glow"), ("float3", "normal", "Decode"),
    ].map { type, input, node in
      "\(type) inputs:\(input).connect = </Looks/Material/Graph/\(node).outputs:out>"
    }
    let stage = Self.stage(node: nodes).replacingOccurrences(
      of: "color3f inputs:baseColor.connect = </Looks/Material/Graph.outputs:colour>",
      with: wiring.joined(separator: "\n"))
    let site = try USDFolderTexturesTests.site(
      withPNGsAt: ["Metal", "Rough", "Occlusion", "Glow", "Bumps"].map { "textures/\($0).png" })
    let path = site.path + "/maps.usda"
    try stage.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    let material = try Self.material(model)
    #expect(material.metallicTexture?.path.hasSuffix("Metal.png") == true, "\(model.warnings)")
    #expect(material.roughnessTexture?.path.hasSuffix("Rough.png") == true)
    #expect(material.occlusionTexture?.path.hasSuffix("Occlusion.png") == true)
    #expect(
      material.emissiveTexture?.path.hasSuffix("Glow.png") == true && material.emissive == SIMD3(1, 1, 1))
    #expect(material.normalTexture?.path.hasSuffix("Bumps.png") == true)
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 1, roughness: 1))
    #expect(material.diffuse == SIMD3(0.2, 0.3, 0.4) && material.diffuseTexture == nil)
    #expect(!model.warnings.contains { $0.contains("connected to nodes") }, "\(model.warnings)")
  }

  @Test(
    "MaterialX's USD form of a Standard Surface: constants from the material's interface inputs, a tiled image's tiling, a coat named as not drawn"
  )
  func standardSurface() throws {
    // As usdMtlx writes a .mtlx document in USD (usd-wg's MaterialXTest): every surface input
    // connected to the material's input of that name, which holds the value or none.
    let stage =
      Self.quad(boundTo: "/Looks/Brass") + """
        def Scope "Looks"
        {
            def Material "Brass"
            {
                float inputs:base = 0.5
                color3f inputs:base_color = (1, 0, 0)
                float inputs:metalness = 1
                float inputs:emission
                color3f inputs:opacity
                token outputs:mtlx:surface.connect = </Looks/Brass/Surface.outputs:surface>
                def Shader "Surface"
                {
                    uniform token info:id = "ND_standard_surface_surfaceshader"
                    float inputs:base.connect = </Looks/Brass.inputs:base>
                    color3f inputs:base_color.connect = </Looks/Brass.inputs:base_color>
                    float inputs:metalness.connect = </Looks/Brass.inputs:metalness>
                    float inputs:emission.connect = </Looks/Brass.inputs:emission>
                    color3f inputs:opacity.connect = </Looks/Brass.inputs:opacity>
                    color3f inputs:coat_color.connect = </Looks/Brass/Graph.outputs:colour>
                    float inputs:specular_roughness.connect = </Looks/Brass/Graph.outputs:roughness>
                    token outputs:surface
                }
                def NodeGraph "Graph"
                {
                    color3f outputs:colour.connect = </Looks/Brass/Graph/Colour.outputs:out>
                    float outputs:roughness.connect = </Looks/Brass/Graph/Roughness.outputs:out>
                    def Shader "Colour"
                    {
                        uniform token info:id = "ND_tiledimage_color3"
                        asset inputs:file = @textures/wood.png@
                        color3f outputs:out
                    }
                    def Shader "Roughness"
                    {
                        uniform token info:id = "ND_tiledimage_float"
                        asset inputs:file = @textures/wood.png@
                        float2 inputs:uvtiling = (2, 3)
                        float2 inputs:uvoffset = (0.25, 0.5)
                        float outputs:out
                    }
                }
            }
        }

        """
    let model = try Self.load(stage)
    let material = try Self.material(model)
    #expect(material.diffuse == SIMD3(0.5, 0, 0) && material.diffuseTexture == nil, "\(material)")
    #expect(material.emissive == .zero && material.opacity == 1)
    #expect(material.metallicRoughness == Material.MetallicRoughness(metallic: 1, roughness: 1))
    let roughness = try #require(material.roughnessTexture, "\(model.warnings)")
    // u' = 2u − 0.25; v' = 3v + 1 − 3 + 0.5 (t up in USD, v down in the mesh).
    #expect(roughness.scale == SIMD3(2, 3, 1) && roughness.offset == SIMD3(-0.25, -1.5, 0), "\(roughness)")
    #expect(
      model.warnings.contains { $0.contains("its coat_color is connected to nodes") }, "\(model.warnings)")
    #expect(!model.warnings.contains { $0.contains("base_color") }, "\(model.warnings)")
  }

  @Test(
    "an input connected to the material's input takes that input's value over its own, as UsdShade resolves it"
  )
  func connectionWins() throws {
    let stage = Self.stage(node: Self.realityKitImage("asset inputs:file = @textures/missing.png@"))
    let model = try Self.load(stage)
    let material = try Self.material(model)
    #expect(material.diffuseTexture?.path.hasSuffix("textures/wood.png") == true, "\(model.warnings)")
  }

  @Test("Reality Composer Pro's promoted input: the surface's base colour from the material's input")
  func promotedInput() throws {
    let stage = Self.stage(node: Self.realityKitImage()).replacingOccurrences(
      of: "color3f inputs:baseColor.connect = </Looks/Material/Graph.outputs:colour>",
      with: "color3f inputs:baseColor.connect = </Looks/Material.inputs:Tint>"
    ).replacingOccurrences(
      of: "asset inputs:picture = @textures/wood.png@", with: "color3f inputs:Tint = (0, 1, 0)")
    let model = try Self.load(stage)
    let material = try Self.material(model)
    #expect(material.diffuse == SIMD3(0, 1, 0) && material.diffuseTexture == nil, "\(material)")
    #expect(!model.warnings.contains { $0.contains("baseColor") }, "\(model.warnings)")
  }

  @Test(
    "a binary layer's image node (usd-core's): its int index, string wraps and bool no_flip_v read by type"
  )
  func binaryLayer() throws {
    let site = try USDFolderTexturesTests.site(withPNGsAt: ["textures/wood.png"])
    let path = site.path + "/materialx-image.usdc"
    try FileManager.default.copyItem(atPath: Fixtures.path("usd/materialx-image.usdc"), toPath: path)
    let model = try ModelAsset.load(path: path)
    let materials = Dictionary(
      model.mesh.materials.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let clamped = try #require(materials["Material0"])
    #expect(clamped.diffuseTexture?.path.hasSuffix("textures/wood.png") == true, "\(model.warnings)")
    #expect(clamped.diffuseTexture?.clamp == true)
    #expect(try #require(materials["Material1"]).diffuseTexture == nil)
    #expect(
      model.warnings.contains { $0.contains("/Looks/Material1/Graph/Image") && $0.contains("no_flip_v") },
      "\(model.warnings)")
  }
}

/// Image nodes ARScene does not draw, each with what its warning names.
private let refusedImageNodes: [(String, String)] = [
  // RealityKit's image read with v down.
  (USDMaterialXImageTests.realityKitImage("bool inputs:no_flip_v = 1"), "no_flip_v"),
  // Coordinates from a node ARScene does not evaluate.
  (
    USDMaterialXImageTests.realityKitImage().replacingOccurrences(
      of: "Graph/UV.outputs", with: "Graph/Noise.outputs")
      + "\ndef Shader \"Noise\"\n{\nuniform token info:id = \"ND_noise2d_vector2\"\nfloat2 outputs:out\n}",
    "reads texture coordinates from /Looks/Material/Graph/Noise"
  ),
]
