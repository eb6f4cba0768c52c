import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `UsdPreviewSurface`'s metallic and roughness each fed by a texture of its own, read from one
/// channel: how Reality Converter writes a glTF's metallic-roughness texture (split into
/// `_metal` and `_rough` images, each read from red) and how Apple's AR Quick Look gallery
/// writes its models. Drawn by `arscene render` as the same surface with those values constant.
@Suite("USD metallic and roughness maps of their own")
struct USDChannelMapsTests {
  /// A 2 × 2 m quad facing the camera, its surface's metallic and roughness `metallic` and
  /// `roughness`: a constant (`float inputs:metallic = 1`) or a connection, with `shaders` (more
  /// `Shader` prims) beside it.
  static func quad(metallic: String, roughness: String, shaders: String = "") -> String {
    """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    def Mesh "Quad" (
        prepend apiSchemas = ["MaterialBindingAPI"]
    )
    {
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
        texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (
            interpolation = "vertex"
        )
        uniform token subdivisionScheme = "none"
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
                color3f inputs:diffuseColor = (0.5, 0.3, 0.1)
                \(metallic)
                \(roughness)
                token outputs:surface
            }
            def Shader "Reader"
            {
                uniform token info:id = "UsdPrimvarReader_float2"
                token inputs:varname = "st"
                float2 outputs:result
            }
            \(shaders)
        }
    }

    """
  }

  /// A `UsdUVTexture` named `name` reading `file`, with `extra` inputs, its outputs declared.
  static func texture(_ name: String, _ file: String, _ extra: String = "") -> String {
    """
    def Shader "\(name)"
            {
                uniform token info:id = "UsdUVTexture"
                asset inputs:file = @\(file)@
                token inputs:sourceColorSpace = "raw"
                float2 inputs:st.connect = </Looks/Material/Reader.outputs:result>
                \(extra)
                float outputs:r
                float outputs:g
            }
    """
  }

  /// The quad whose metallic reads red from `metal.png`, a 2 × 2 image of full red (white where
  /// `white`) written into `folder`, through a texture with `input` (its scale or bias), its
  /// roughness the constant `roughness`.
  static func metalMapped(white: Bool, roughness: String, input: String, in folder: TemporaryFolder) throws
    -> String
  {
    let texel = white ? SIMD4<UInt8>(255, 255, 255, 255) : SIMD4<UInt8>(255, 0, 0, 255)
    let metal = RGBA8Image(width: 2, height: 2, pixels: Array(repeating: texel, count: 4))
    try Data(try PNG.encode(metal)).write(to: URL(fileURLWithPath: folder.path + "/metal.png"))
    return quad(
      metallic: "float inputs:metallic.connect = </Looks/Material/Metal.outputs:r>",
      roughness: "float inputs:roughness = \(roughness)", shaders: texture("Metal", "metal.png", input))
  }

  /// The 16 × 16 render of `stage` (the quad fills the frame, u = 0 at the left) lit by an
  /// ambient and a directional light, with the warnings `arscene` gave.
  static func render(_ stage: String, in folder: TemporaryFolder) throws -> (RGBA8Image, String) {
    let model = try folder.write(stage, to: "quad-\(UUID().uuidString).usda")
    let scene = try folder.write(
      """
      {"output": {"width": 16, "height": 16}, "background": {"color": [0, 0, 0]},
       "camera": {"intrinsics": {"fx": 16, "fy": 16, "cx": 8, "cy": 8}, "world_from_camera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,2,1]},
       "lights": {"ambient": [0.05, 0.05, 0.05], "directional": [{"direction": [-0.3, -0.2, -1], "color": [1, 1, 1], "intensity": 0.6}]},
       "objects": [{"name": "quad", "model": "\(model)"}]}
      """, to: "scene-\(UUID().uuidString).json")
    let out = folder.path + "/out-\(UUID().uuidString).png"
    let outcome = try ArsceneRunner.run(["render", scene, "-o", out])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return (try ImageFile.readRGBA8(out), outcome.stderr)
  }

  /// Whether `a` and `b` are within 2 levels in every colour channel.
  static func close(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> Bool {
    let d = SIMD4<Int>(truncatingIfNeeded: a) &- SIMD4<Int>(truncatingIfNeeded: b)
    return abs(d.x) <= 2 && abs(d.y) <= 2 && abs(d.z) <= 2
  }

  @Test(
    "metallic from one image's red and roughness from another's green: its dielectric texels draw as metallic 0, its metal ones as 1"
  )
  func separateMaps() throws {
    let folder = try TemporaryFolder()
    // Metallic 0, 0, 1, 1 across in red (green and blue the opposite, to be ignored); roughness
    // 0.6 in green of the other (red 0, to be ignored).
    let metal = RGBA8Image(
      width: 4, height: 1, pixels: [0, 0, 255, 255].map { SIMD4<UInt8>($0, 255 - $0, 255 - $0, 255) })
    let rough = RGBA8Image(
      width: 4, height: 1, pixels: Array(repeating: SIMD4<UInt8>(0, 153, 0, 255), count: 4))
    try Data(try PNG.encode(metal)).write(to: URL(fileURLWithPath: folder.path + "/metal.png"))
    try Data(try PNG.encode(rough)).write(to: URL(fileURLWithPath: folder.path + "/rough.png"))
    let (mapped, warnings) = try Self.render(
      Self.quad(
        metallic: "float inputs:metallic.connect = </Looks/Material/Metal.outputs:r>",
        roughness: "float inputs:roughness.connect = </Looks/Material/Rough.outputs:g>",
        shaders: Self.texture("Metal", "metal.png") + "\n" + Self.texture("Rough", "rough.png")),
      in: folder)
    #expect(!warnings.contains("not applied"), "\(warnings)")
    let (dielectric, _) = try Self.render(
      Self.quad(metallic: "float inputs:metallic = 0", roughness: "float inputs:roughness = 0.6"), in: folder)
    let (metallic, _) = try Self.render(
      Self.quad(metallic: "float inputs:metallic = 1", roughness: "float inputs:roughness = 0.6"), in: folder)
    // Where the halves are compared, metal and dielectric look different: the check can fail.
    let contrast = [4, 8, 12].map { y in
      let (m, d) = (metallic[12, y], dielectric[12, y])
      return abs(Int(m.x) - Int(d.x)) + abs(Int(m.y) - Int(d.y)) + abs(Int(m.z) - Int(d.z))
    }
    #expect(contrast.max()! > 20, "\(contrast)")
    for y in [4, 8, 12] {
      #expect(
        Self.close(mapped[4, y], dielectric[4, y]), "left, row \(y): \(mapped[4, y]) \(dielectric[4, y])")
      #expect(
        Self.close(mapped[12, y], metallic[12, y]), "right, row \(y): \(mapped[12, y]) \(metallic[12, y])")
    }
  }

  @Test("a map's texture scale for its channel is its factor: metal texels at scale 0 draw as a dielectric")
  func scaleIsTheFactor() throws {
    let folder = try TemporaryFolder()
    let (scaled, _) = try Self.render(
      Self.metalMapped(
        white: true, roughness: "0.6", input: "float4 inputs:scale = (0, 1, 1, 1)", in: folder),
      in: folder)
    let (dielectric, _) = try Self.render(
      Self.quad(metallic: "float inputs:metallic = 0", roughness: "float inputs:roughness = 0.6"), in: folder)
    let (metallic, _) = try Self.render(
      Self.quad(metallic: "float inputs:metallic = 1", roughness: "float inputs:roughness = 0.6"), in: folder)
    #expect(!Self.close(metallic[8, 8], dielectric[8, 8]))
    #expect(Self.close(scaled[8, 8], dielectric[8, 8]), "\(scaled[8, 8]) \(dielectric[8, 8])")
  }

  @Test(
    "model convert to GLB keeps the surface's factors and names the maps glTF's file does not carry"
  )
  func convertNamesMapsLeftOut() throws {
    let folder = try TemporaryFolder()
    let model = try folder.write(
      Self.metalMapped(
        white: false, roughness: "0.3", input: "float4 inputs:scale = (0.5, 1, 1, 1)", in: folder),
      to: "quad.usda")
    let out = folder.path + "/quad.glb"
    let outcome = try ArsceneRunner.run(["model", "convert", model, "-o", out])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stderr.contains("material Material: its metallic map is not written to"), "\(outcome.stderr)")
    // The GLB's JSON chunk: after the 12-byte header, its length, its type, then the text.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    let length = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[20..<(20 + length)])) as? [String: Any])
    let material = try #require(
      (json["materials"] as? [[String: Any]])?.first { $0["name"] as? String == "Material" })
    let pbr = try #require(material["pbrMetallicRoughness"] as? [String: Any])
    let factors = [pbr["metallicFactor"], pbr["roughnessFactor"]].map { $0 as? Double ?? .nan }
    #expect(abs(factors[0] - 0.5) < 1e-6 && abs(factors[1] - 0.3) < 1e-6, "\(pbr)")
  }

  @Test("a scene's render names what its model's reader warned of, with the object's field")
  func sceneNamesModelWarnings() throws {
    let folder = try TemporaryFolder()
    let (_, warnings) = try Self.render(
      Self.metalMapped(
        white: false, roughness: "0.3", input: "float4 inputs:bias = (0.5, 0, 0, 0)", in: folder),
      in: folder)
    #expect(
      warnings.contains("objects[0].model: ") && warnings.contains("/Looks/Material/Metal's bias"),
      "\(warnings)")
  }
}
