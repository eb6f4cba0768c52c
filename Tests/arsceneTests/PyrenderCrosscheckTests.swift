import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// glTF's metallic-roughness materials drawn by `arscene render` and by pyrender (PyPI, OpenGL
/// through Mesa's OSMesa; `Tools/peers/pyrender_render.py`), an independent renderer, under the
/// same camera and lights.
///
/// pyrender's shading is close to the specification's Appendix B but not equal to it: its Smith
/// term is Schlick's with k = (roughness + 1)² / 8, its diffuse colour is scaled by 0.96, its
/// dielectric f0 is 0.04 through a minimum roughness, and it filters sRGB-encoded texels before
/// decoding them (ARScene filters linear light, as a GPU's sRGB textures do). Against the
/// specification in numpy the same spheres read 38.4 dB for ARScene and 36.9 for pyrender.
@Suite(
  "glTF materials against pyrender",
  .enabled(if: PyrenderPeer.available, "needs pyrender (Tools/test installs it) and Mesa's OSMesa"))
struct PyrenderCrosscheckTests {
  struct Peer: Decodable { var linear: [[Double]?] }

  /// The camera and lights both renderers use (the keys of `Tests/Fixtures/pbr/setup.json`).
  struct Setup: Encodable {
    var size: Int
    var ambient: [Double]
    var light_direction: [Double]
    var light_intensity: Double
    var vertical_fov_deg: Double
    var eye: [Double]
    var target: [Double] = [0, 0, 0]
  }

  /// The PSNR (dB) of ARScene's render of `model` against pyrender's, over the pixels inside
  /// what both drew (a pixel and its eight neighbours drawn), and how many there were.
  static func psnr(_ model: String, _ setup: Setup) throws -> (psnr: Double, pixels: Int) {
    let folder = try TemporaryFolder()
    let setupPath = folder.path + "/setup.json"
    try JSONEncoder().encode(setup).write(to: URL(fileURLWithPath: setupPath))
    let scene = try folder.write(
      """
      {"output": {"width": \(setup.size), "height": \(setup.size)}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": \(setup.vertical_fov_deg), "look_at": {"eye": \(setup.eye), "target": \(setup.target)}},
       "lights": {"ambient": \(setup.ambient), "directional": [
         {"direction": \(setup.light_direction), "color": [1, 1, 1], "intensity": \(setup.light_intensity)}]},
       "objects": [{"name": "model", "model": "\(model)"}]}
      """, to: "scene.json")
    // The model is a real file in ../shared, outside the scene's folder: allowed by name.
    let outcome = try ArsceneRunner.run([
      "render", scene, "-o", folder.path + "/ours.png", "--allow-path",
      URL(fileURLWithPath: model).deletingLastPathComponent().path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let ours = try ImageFile.readRGBA8(folder.path + "/ours.png")
    let run = try PythonPeer.runScript(
      PythonPeer.packageRoot + "/Tools/peers/pyrender_render.py", arguments: [setupPath, model],
      packages: ["pyrender", "trimesh"])
    #expect(run.status == 0)
    let theirs = try JSONDecoder().decode(Peer.self, from: Data(run.output.utf8)).linear
    let n = setup.size
    let drawnByUs = { (x: Int, y: Int) in
      let p = ours[x, y]
      return Int(p.x) + Int(p.y) + Int(p.z) > 0
    }
    var squared = 0.0, count = 0
    for y in 1..<(n - 1) {
      for x in 1..<(n - 1) {
        let inside = (-1...1).allSatisfy { dy in
          (-1...1).allSatisfy { dx in theirs[(y + dy) * n + x + dx] != nil && drawnByUs(x + dx, y + dy) }
        }
        guard inside, let linear = theirs[y * n + x] else { continue }
        let p = ours[x, y]
        for (mine, light) in zip([p.x, p.y, p.z], linear) {
          let e = Double(mine) - PBRCrosscheckTests.srgb(light)
          squared += e * e
        }
        count += 1
      }
    }
    return (10 * log10(255 * 255 / (squared / Double(3 * Swift.max(count, 1)))), count)
  }

  @Test("nine spheres of metallic 0, 0.5, 1 and roughness 0.2, 0.5, 0.9: at least 33 dB (34.7 measured)")
  func spheres() throws {
    let setup = Setup(
      size: 128, ambient: [0.05, 0.05, 0.05], light_direction: [-0.5, -0.6, -1.0], light_intensity: 2,
      vertical_fov_deg: 45, eye: [0, 0, 9])
    let (psnr, pixels) = try Self.psnr(Fixtures.path("pbr/spheres.glb"), setup)
    #expect(pixels > 5_000 && psnr >= 33, "PSNR \(psnr) dB over \(pixels) pixels")
  }

  /// Khronos's Box (a node matrix, one material) and BoxTextured (a base colour texture,
  /// trilinear), seen from above a corner.
  @Test(
    "Khronos samples: Box at least 36 dB (38.4 measured), BoxTextured at least 26 dB (27.9: the texture's filtering)",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)),
    arguments: [
      ("models3d/khronos_via_draco/Box/glTF-Binary/Box.glb", 36.0),
      ("models3d/khronos_via_assimp/BoxTextured/glTF-Binary/BoxTextured.glb", 26.0),
    ])
  func khronosSamples(model: String, floor: Double) throws {
    let setup = Setup(
      size: 256, ambient: [0.1, 0.1, 0.1], light_direction: [-0.4, -0.7, -0.6], light_intensity: 1.5,
      vertical_fov_deg: 40, eye: [1.6, 1.3, 2.2])
    let (psnr, pixels) = try Self.psnr(RealData.path(model), setup)
    #expect(pixels > 20_000 && psnr >= floor, "PSNR \(psnr) dB over \(pixels) pixels")
  }
}

/// Whether pyrender and its OpenGL can run here (Tools/test installs them).
enum PyrenderPeer {
  static let available: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import os; os.environ['PYOPENGL_PLATFORM'] = 'osmesa'; import pyrender"]
    let root = PythonPeer.packageRoot + "/.build/peers/"
    process.environment = ["PYTHONPATH": root + "pyrender:" + root + "trimesh"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExitPromptly()
    return process.terminationStatus == 0
  }()
}
