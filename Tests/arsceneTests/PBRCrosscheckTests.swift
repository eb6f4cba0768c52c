import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// glTF's metallic-roughness materials rendered by `arscene render` against the specification's
/// BRDF written independently in numpy (`Tools/peers/gltf_brdf.py`) on the same spheres, solved
/// analytically per pixel: nine spheres of metallic 0, 0.5, 1 and roughness 0.2, 0.5, 0.9
/// (`Tests/Fixtures/pbr`, written by `Tools/generate-pbr-fixtures` with trimesh).
@Suite("glTF BRDF against the specification in numpy")
struct PBRCrosscheckTests {
  struct Oracle: Decodable { var linear: [[Double]?] }

  struct Setup: Decodable {
    var size: Int
    var ambient: [Double]
    var light_direction: [Double]
    var light_intensity: Double
    var vertical_fov_deg: Double
    var eye_z: Double
  }

  static func srgb(_ x: Double) -> Double {
    let c = Swift.min(Swift.max(x, 0), 1)
    return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * Foundation.pow(c, 1 / 2.4) - 0.055)
  }

  @Test(
    "nine spheres of varied metallic and roughness: PSNR at least 36 dB inside the spheres (38.5 measured)",
    .enabled(if: GLTFNumpy.available, "needs Debian's python3-numpy"))
  func spheres() throws {
    let setupPath = Fixtures.path("pbr/setup.json")
    let setup = try JSONDecoder().decode(Setup.self, from: Data(contentsOf: URL(fileURLWithPath: setupPath)))
    let folder = try TemporaryFolder()
    let scene = try folder.write(
      """
      {"output": {"width": \(setup.size), "height": \(setup.size)}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": \(setup.vertical_fov_deg), "look_at": {"eye": [0, 0, \(setup.eye_z)], "target": [0, 0, 0]}},
       "lights": {"ambient": \(setup.ambient), "directional": [
         {"direction": \(setup.light_direction), "color": [1, 1, 1], "intensity": \(setup.light_intensity)}]},
       "objects": [{"name": "spheres", "model": "\(Fixtures.path("pbr/spheres.glb"))"}]}
      """, to: "spheres.json")
    let outcome = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/spheres.png"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(folder.path + "/spheres.png")
    let run = try PythonPeer.runScript(
      PythonPeer.packageRoot + "/Tools/peers/gltf_brdf.py", arguments: [setupPath])
    let oracle = try JSONDecoder().decode(Oracle.self, from: Data(run.output.utf8))
    let n = setup.size
    var squared = 0.0, count = 0, worst = 0.0
    for y in 1..<(n - 1) {
      for x in 1..<(n - 1) {
        // Inside a sphere: the pixel and its eight neighbours (the silhouette is a tessellated
        // icosphere's, not the analytic sphere's).
        let inside = (-1...1).allSatisfy { dy in
          (-1...1).allSatisfy { dx in oracle.linear[(y + dy) * n + x + dx] != nil }
        }
        guard inside, let expected = oracle.linear[y * n + x] else { continue }
        let p = image[x, y]
        for (ours, theirs) in zip([p.x, p.y, p.z], expected) {
          let e = Double(ours) - Self.srgb(theirs)
          squared += e * e
          worst = Swift.max(worst, abs(e))
        }
        count += 3
      }
    }
    let psnr = 10 * log10(255 * 255 / (squared / Double(count)))
    #expect(
      count / 3 > 4_000 && psnr >= 36, "PSNR \(psnr) dB over \(count / 3) pixels, worst \(worst) levels")
  }
}

/// Whether Debian's numpy is there for the Python oracles.
enum GLTFNumpy {
  static let available: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import numpy"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExitPromptly()
    return process.terminationStatus == 0
  }()
}

/// glTF's alpha modes and `KHR_materials_unlit`, drawn by `arscene render` on a quad facing
/// the camera under a strong light.
@Suite("glTF alpha modes and unlit materials")
struct GLTFMaterialModeTests {
  /// A one-quad glTF (a 2 m square at z = 0 facing +z) with `material` as its only material.
  static func quad(material: String) -> String {
    var bytes: [UInt8] = []
    for p: [Float] in [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]] {
      for x in p { withUnsafeBytes(of: x.bitPattern.littleEndian) { bytes += $0 } }
    }
    for i: UInt16 in [0, 1, 2, 0, 2, 3] { withUnsafeBytes(of: i.littleEndian) { bytes += $0 } }
    let uri = "data:application/octet-stream;base64," + Data(bytes).base64EncodedString()
    return """
      {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
       "materials": [\(material)], "extensionsUsed": ["KHR_materials_unlit"],
       "buffers": [{"byteLength": 60, "uri": "\(uri)"}],
       "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
       "accessors": [
         {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
         {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}]}
      """
  }

  /// The centre pixel of the quad rendered with `material` under a light 5 times white.
  static func centre(_ material: String) throws -> SIMD4<UInt8> {
    let folder = try TemporaryFolder()
    let model = try folder.write(quad(material: material), to: "quad.gltf")
    let scene = try folder.write(
      """
      {"output": {"width": 16, "height": 16}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": 40, "look_at": {"eye": [0, 0, 4], "target": [0, 0, 0]}},
       "lights": {"ambient": [0, 0, 0], "directional": [{"direction": [0, 0, -1], "color": [1, 1, 1], "intensity": 5}]},
       "objects": [{"name": "quad", "model": "\(model)"}]}
      """, to: "scene.json")
    let outcome = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/out.png"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try ImageFile.readRGBA8(folder.path + "/out.png")[8, 8]
  }

  @Test("KHR_materials_unlit: the base colour as it is, whatever the light")
  func unlit() throws {
    let p = try Self.centre(
      #"{"pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.4, 0.6, 1]}, "extensions": {"KHR_materials_unlit": {}}}"#
    )
    let expected = [0.2, 0.4, 0.6].map { PBRCrosscheckTests.srgb($0) }
    for (ours, theirs) in zip([p.x, p.y, p.z], expected) { #expect(abs(Double(ours) - theirs) <= 1, "\(p)") }
  }

  @Test(
    "MASK draws where the base colour's alpha reaches the cutoff and nothing below; OPAQUE ignores alpha",
    arguments: [
      (#""alphaMode": "MASK", "alphaCutoff": 0.5"#, 0.6, true),
      (#""alphaMode": "MASK", "alphaCutoff": 0.7"#, 0.6, false),
      (#""alphaMode": "MASK""#, 0.4, false),
      (#""alphaMode": "OPAQUE""#, 0.3, true),
    ])
  func alphaModes(mode: String, alpha: Double, drawn: Bool) throws {
    let p = try Self.centre(
      #"{"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.9, 0.9, \#(alpha)], "metallicFactor": 0}, \#(mode)}"#
    )
    #expect((p.x > 100) == drawn && p.w == 255, "\(p)")
  }
}

extension GLTFMaterialModeTests {
  /// A quad filling a 16×16 frame, its metallic-roughness texture 4×1 texels: metallic 0, 0, 1, 1
  /// (blue), roughness 0.6 (green); metallicFactor `metallic` and no texture without `textured`.
  static func texturedQuad(metallic: Double, textured: Bool, wrap: Int = 33071) throws -> RGBA8Image {
    let map = RGBA8Image(
      width: 4, height: 1, pixels: [0, 0, 255, 255].map { SIMD4<UInt8>(0, 153, $0, 255) })
    let png = "data:image/png;base64," + Data(try PNG.encode(map)).base64EncodedString()
    let texture = textured ? #", "metallicRoughnessTexture": {"index": 0}"# : ""
    let roughness = textured ? 1 : 0.6
    let json = GLTFQuad.json(
      material: """
        {"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.3, 0.1, 1], "metallicFactor": \(metallic),
          "roughnessFactor": \(roughness)\(texture)}}
        """, imageURIs: [png], wrap: wrap)
    let folder = try TemporaryFolder()
    let model = try folder.write(json, to: "quad.gltf")
    let scene = try folder.write(
      """
      {"output": {"width": 16, "height": 16}, "background": {"color": [0, 0, 0]},
       "camera": {"intrinsics": {"fx": 16, "fy": 16, "cx": 8, "cy": 8}, "world_from_camera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,2,1]},
       "lights": {"ambient": [0.05, 0.05, 0.05], "directional": [{"direction": [-0.3, -0.2, -1], "color": [1, 1, 1], "intensity": 0.6}]},
       "objects": [{"name": "quad", "model": "\(model)"}]}
      """, to: "scene.json")
    let outcome = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/out.png"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try ImageFile.readRGBA8(folder.path + "/out.png")
  }

  @Test("a sampler's clamp to edge keeps the edge texel at the edge; repeat blends in the opposite edge's")
  func samplerWrap() throws {
    let clamped = try Self.texturedQuad(metallic: 1, textured: true, wrap: 33071)
    let repeated = try Self.texturedQuad(metallic: 1, textured: true, wrap: 10497)
    let dielectric = try Self.texturedQuad(metallic: 0, textured: false)
    // The leftmost column: u ≈ 0.03, between the first texel's centre and the left edge.
    let (c, r, d) = (clamped[0, 8], repeated[0, 8], dielectric[0, 8])
    #expect(abs(Int(c.x) - Int(d.x)) <= 2 && abs(Int(c.z) - Int(d.z)) <= 2, "\(c) \(d)")
    #expect(abs(Int(r.x) - Int(d.x)) + abs(Int(r.z) - Int(d.z)) > 4, "\(r) \(d)")
  }

  @Test(
    "a metallic-roughness texture: its dielectric texels draw as metallic 0, its metal ones as metallic 1")
  func metallicRoughnessTexture() throws {
    let textured = try Self.texturedQuad(metallic: 1, textured: true)
    let dielectric = try Self.texturedQuad(metallic: 0, textured: false)
    let metal = try Self.texturedQuad(metallic: 1, textured: false)
    // Where the metal half is compared, a dielectric looks different: the check can fail.
    let contrast = [4, 8, 12].map { y in
      let (m, d) = (metal[12, y], dielectric[12, y])
      return abs(Int(m.x) - Int(d.x)) + abs(Int(m.y) - Int(d.y)) + abs(Int(m.z) - Int(d.z))
    }
    #expect(contrast.max()! > 20, "\(contrast)")
    for y in [4, 8, 12] {
      let (left, right) = (textured[4, y], textured[12, y])
      for (ours, expected) in [(left, dielectric[4, y]), (right, metal[12, y])] {
        let d = SIMD4<Int>(truncatingIfNeeded: ours) &- SIMD4<Int>(truncatingIfNeeded: expected)
        #expect(abs(d.x) <= 2 && abs(d.y) <= 2 && abs(d.z) <= 2, "\(ours) against \(expected) at row \(y)")
      }
    }
  }
}
