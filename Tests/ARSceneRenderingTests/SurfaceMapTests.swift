import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// glTF's emissive, occlusion and normal maps and its mirrored-repeat sampler, each judged by a
/// value it must reproduce: the emissive texel itself, the ambient light scaled by the occlusion
/// texel, a flat quad whose normal map tilts it shading as the same quad turned by that tilt.
@Suite("glTF surface maps")
struct SurfaceMapTests {
  /// The test quad (`GLTFQuad`) with `material` and a texture per image of `images`.
  static func quad(
    material: String, images: [RGBA8Image] = [], wrap: Int = 33071, uvRange: Float = 1,
    rotation: [Double] = [0, 0, 0, 1], secondSet: Bool = false
  ) throws -> String {
    let uris = try images.map { "data:image/png;base64," + Data(try PNG.encode($0)).base64EncodedString() }
    return GLTFQuad.json(
      material: material, imageURIs: uris, wrap: wrap, uvRange: uvRange, rotation: rotation,
      secondSet: secondSet)
  }

  /// The quad rendered 17 pixels square from 2 m in front (it fills the frame; pixel 8 looks
  /// along the optical axis at the quad's centre), under `lights` (a scene's `lights` object).
  static func render(_ model: String, lights: String) throws -> RGBA8Image {
    let folder = try TemporaryFolder()
    let path = try folder.write(model, to: "quad.gltf")
    let scene = try folder.write(
      """
      {"output": {"width": 17, "height": 17}, "background": {"color": [0, 0, 0]},
       "camera": {"intrinsics": {"fx": 17, "fy": 17, "cx": 8.5, "cy": 8.5}, "world_from_camera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,2,1]},
       "lights": \(lights), "objects": [{"name": "quad", "model": "\(path)"}]}
      """, to: "scene.json")
    return try Scene.load(path: scene).render()
  }

  /// 8-bit sRGB of a linear value.
  static func srgb(_ linear: Double) -> Double {
    let c = Swift.min(Swift.max(linear, 0), 1)
    return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * Foundation.pow(c, 1 / 2.4) - 0.055)
  }

  static func close(_ pixel: SIMD4<UInt8>, _ expected: [Double], within tolerance: Double = 1.01) -> Bool {
    zip([pixel.x, pixel.y, pixel.z], expected).allSatisfy { abs(Double($0) - $1) <= tolerance }
  }

  @Test("an emissive map: each texel's colour times the emissive factor, with no light at all")
  func emissive() throws {
    let map = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255)])
    let material = #"""
      {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1]}, "emissiveFactor": [0.5, 1, 1], "emissiveTexture": {"index": 0}}
      """#
    let image = try Self.render(
      Self.quad(material: material, images: [map]), lights: #"{"ambient": [0, 0, 0]}"#)
    // Columns 1-3 sample the red texel alone and 13-15 the green one (clamped to the edge).
    for y in [2, 8, 14] {
      for x in 1...3 {
        #expect(Self.close(image[x, y], [Self.srgb(0.5), 0, 0]), "\(image[x, y]) at \(x), \(y)")
      }
      for x in 13...15 { #expect(Self.close(image[x, y], [0, 255, 0]), "\(image[x, y]) at \(x), \(y)") }
    }
  }

  @Test(
    "an emissive map on TEXCOORD_1 (its texCoord 1) samples the second set; on set 0 the first, which sees one texel",
    arguments: [1, 0])
  func emissiveOnSecondSet(texCoord: Int) throws {
    let map = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255)])
    let material = """
      {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1]}, "emissiveFactor": [1, 1, 1], "emissiveTexture": {"index": 0, "texCoord": \(texCoord)}}
      """
    let model = try Self.quad(material: material, images: [map], secondSet: true)
    let image = try Self.render(model, lights: #"{"ambient": [0, 0, 0]}"#)
    for y in [2, 8, 14] {
      #expect(Self.close(image[2, y], [255, 0, 0]), "\(image[2, y]) at 2, \(y)")
      // Set 1 spans the map (green on the right); set 0 is (0.25, 0.5) everywhere: red.
      let right: [Double] = texCoord == 1 ? [0, 255, 0] : [255, 0, 0]
      #expect(Self.close(image[14, y], right), "\(image[14, y]) at 14, \(y)")
    }
    let folder = try TemporaryFolder()
    let asset = try ModelAsset.load(path: try folder.write(model, to: "quad.gltf"))
    #expect(asset.warnings.isEmpty, "\(asset.warnings)")
    #expect(asset.mesh.texcoords1.isEmpty == (texCoord == 0))
  }

  @Test(
    "a KHR_texture_transform on a map of the second set moves that set: the whole quad samples the green texel"
  )
  func transformOnSecondSet() throws {
    let map = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(255, 0, 0, 255), SIMD4(0, 255, 0, 255)])
    let material = #"""
      {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1]}, "emissiveFactor": [1, 1, 1],
       "emissiveTexture": {"index": 0, "texCoord": 1, "extensions": {"KHR_texture_transform": {"offset": [0.75, 0], "scale": [0.25, 1]}}}}
      """#
    let image = try Self.render(
      Self.quad(material: material, images: [map], secondSet: true), lights: #"{"ambient": [0, 0, 0]}"#)
    for y in [2, 8, 14] {
      for x in [2, 14] { #expect(Self.close(image[x, y], [0, 255, 0]), "\(image[x, y]) at \(x), \(y)") }
    }
  }

  @Test(
    "an occlusion map scales the ambient light by 1 + strength·(texel − 1)",
    arguments: [1.0, 0.5, 0.0])
  func occlusion(strength: Double) throws {
    let map = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(255, 0, 0, 255), SIMD4(51, 0, 0, 255)])
    let material = """
      {"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.6, 0.4, 1], "metallicFactor": 0},
       "occlusionTexture": {"index": 0, "strength": \(strength)}}
      """
    let image = try Self.render(
      Self.quad(material: material, images: [map]), lights: #"{"ambient": [0.5, 0.5, 0.5]}"#)
    let occluded = 1 + strength * (51.0 / 255 - 1)
    for y in [2, 8, 14] {
      let left = [0.8, 0.6, 0.4].map { Self.srgb(0.5 * $0) }
      let right = [0.8, 0.6, 0.4].map { Self.srgb(0.5 * $0 * occluded) }
      #expect(Self.close(image[2, y], left), "\(image[2, y]) against \(left)")
      #expect(Self.close(image[14, y], right), "\(image[14, y]) against \(right)")
    }
  }

  @Test(
    "a normal map tilting the quad's normal 45° towards +u (+x) or +v (+y): the centre shades as the quad turned by 45°",
    arguments: [
      (SIMD4<UInt8>(218, 128, 218, 255), [0, 0.382683432, 0, 0.923879533]),
      (SIMD4<UInt8>(128, 218, 218, 255), [-0.382683432, 0, 0, 0.923879533]),
      (SIMD4<UInt8>(38, 128, 218, 255), [0, -0.382683432, 0, 0.923879533]),
    ])
  func normalMap(texel: SIMD4<UInt8>, rotation: [Double]) throws {
    let lights = #"""
      {"ambient": [0.02, 0.02, 0.02], "directional": [{"direction": [-0.4, -0.3, -1], "color": [1, 1, 1], "intensity": 2}]}
      """#
    let pbr =
      #""pbrMetallicRoughness": {"baseColorFactor": [0.7, 0.7, 0.7, 1], "metallicFactor": 0.3, "roughnessFactor": 0.5}"#
    let map = RGBA8Image(width: 1, height: 1, pixels: [texel])
    let mapped = try Self.render(
      Self.quad(material: "{\(pbr), \"normalTexture\": {\"index\": 0}}", images: [map]), lights: lights)
    let turned = try Self.render(Self.quad(material: "{\(pbr)}", rotation: rotation), lights: lights)
    let flat = try Self.render(Self.quad(material: "{\(pbr)}"), lights: lights)
    let (m, t, f) = (mapped[8, 8], turned[8, 8], flat[8, 8])
    // The tilt changes the shade, so the comparison can fail; 8-bit texels leave ±0.4° of tilt.
    #expect(abs(Int(t.x) - Int(f.x)) > 10, "turned \(t), flat \(f)")
    #expect(abs(Int(m.x) - Int(t.x)) <= 2, "normal-mapped \(m), turned \(t)")
  }

  @Test("a mirrored-repeat sampler draws every other tile mirrored; repeat starts each tile over")
  func mirroredRepeat() throws {
    let ramp = RGBA8Image(width: 2, height: 1, pixels: [SIMD4(0, 0, 0, 255), SIMD4(255, 255, 255, 255)])
    let material = #"""
      {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "baseColorTexture": {"index": 0}}, "extensions": {"KHR_materials_unlit": {}}}
      """#
    let mirrored = try Self.render(
      Self.quad(material: material, images: [ramp], wrap: 33648, uvRange: 2),
      lights: #"{"ambient": [1, 1, 1]}"#)
    let repeated = try Self.render(
      Self.quad(material: material, images: [ramp], wrap: 10497, uvRange: 2),
      lights: #"{"ambient": [1, 1, 1]}"#)
    // u runs 0…2 across the frame: the mirrored ramp is dark at both sides and light in the
    // middle, symmetric about it; the repeated one is light at the right.
    for x in 0..<8 {
      let (left, right) = (mirrored[x, 8], mirrored[16 - x, 8])
      #expect(abs(Int(left.x) - Int(right.x)) <= 2, "column \(x): \(left), column \(16 - x): \(right)")
    }
    #expect(mirrored[0, 8].x < 60 && mirrored[8, 8].x > 200, "\(mirrored[0, 8]) \(mirrored[8, 8])")
    #expect(repeated[16, 8].x > 200, "\(repeated[16, 8])")
  }

  @Test("UsdPreviewSurface's emissive, normal and occlusion inputs: the emissive checker glows with no light")
  func usdPreviewSurfaceMaps() throws {
    let path = Fixtures.path("usd/mapped-quad.usdz")
    let material = try #require(ModelAsset.load(path: path).mesh.materials.first { $0.name == "Checker" })
    #expect(
      material.emissiveTexture != nil && material.normalTexture != nil && material.occlusionTexture != nil)
    #expect(material.diffuse == .zero && material.emissive == SIMD3(1, 1, 1))
    let folder = try TemporaryFolder()
    let scene = try folder.write(
      """
      {"output": {"width": 17, "height": 17}, "background": {"color": [0.5, 0.5, 0.5]},
       "camera": {"intrinsics": {"fx": 17, "fy": 17, "cx": 8.5, "cy": 8.5}, "world_from_camera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0.5,0.5,1,1]},
       "lights": {"ambient": [0, 0, 0]}, "objects": [{"name": "quad", "model": "\(path)"}]}
      """, to: "scene.json")
    let image = try Scene.load(path: scene).render()
    // Near the checker's texel centres (red, green above; blue, white below; 3% of the
    // neighbours blended in): each texel's colour.
    for (x, y, rgb) in [
      (4, 4, [255.0, 0, 0]), (12, 4, [0, 255, 0]), (4, 12, [0, 0, 255]), (12, 12, [255, 255, 255]),
    ] {
      #expect(Self.close(image[x, y], rgb, within: 70), "\(image[x, y]) at \(x), \(y)")
    }
  }
}
