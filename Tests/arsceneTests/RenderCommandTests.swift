import ARImage
import ARImageIO
import ARMesh
import ARTestSupport
import Foundation
import Testing

/// `arscene render`: the model mode's contract, exactly, and scene mode end to end.
@Suite("arscene render")
struct RenderCommandTests {
  static func temporaryDirectory() throws -> String {
    let dir = NSTemporaryDirectory() + "arscene-render-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// A camera at z = 2 looking down −Z at the origin: 100 px focal length on 64×64.
  static let camera = [
    "--size", "64,64", "--intrinsics", "100,100,32,32",
    "--world-from-camera", "1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,2,1",
  ]

  @Test("--depth-output writes millimetres along the view axis as 16-bit grey, 0 where nothing is drawn")
  func depthOutput() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The cube's front face at z = 0, the camera 2 m in front of it (the tilted planes'
    // per-pixel depths are checked against the analytic distance in ARRenderTests).
    let model = Fixtures.path("obj/cube_quads.obj")
    let place = ["--world-from-model", "1,0,0,0, 0,1,0,0, 0,0,1,0, -0.5,-0.5,-1,1"]
    let outcome = try ArsceneRunner.run(
      ["render", "--model", model] + Self.camera + place + [
        "--shading", "unlit", "--depth-output", dir + "/depth.png", "-o", dir + "/image.png",
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/depth.png")))
    let depth = try PNG.decodeRGBA16(bytes)
    #expect(depth.width == 64 && depth.height == 64)
    #expect(depth[32, 32].x == 2000 && depth[7, 7].x == 2000 && depth[56, 56].x == 2000)
    #expect(depth[3, 3].x == 0 && depth[60, 32].x == 0)
    let image = try ImageFile.readRGBA8(dir + "/image.png")
    #expect(zip(image.pixels, depth.pixels).allSatisfy { ($0.0.x > 0) == ($0.1.x > 0) })
  }

  @Test("--view W,H --orientation: a phone screen of that size; a bad orientation or size is an error")
  func phoneScreen() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = Fixtures.path("scenes/camera_frame.json")
    let outcome = try ArsceneRunner.run([
      "render", scene, "--view", "12,40", "--orientation", "portrait", "-o", dir + "/screen.png",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let screen = try ImageFile.readRGBA8(dir + "/screen.png")
    #expect(screen.width == 12 && screen.height == 40)
    for (arguments, message) in [
      (["--view", "0,40"], "--view"), (["--view", "12.5,40"], "--view"),
      (["--orientation", "upside"], "--orientation"),
    ] {
      let bad = try ArsceneRunner.run(["render", scene, "-o", dir + "/bad.png"] + arguments)
      #expect(bad.status == 64 && bad.stderr.contains(message), "\(bad.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/bad.png"))
    }
  }

  @Test(
    "--overlay-output: the content alone, straight alpha, edges at partial opacity in the content's colour")
  func overlayOutput() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let outcome = try ArsceneRunner.run([
      "render", Fixtures.path("scenes/camera_frame.json"), "--samples", "4", "-o", dir + "/composite.png",
      "--overlay-output", dir + "/overlay.png",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let overlay = try ImageFile.readRGBA8(dir + "/overlay.png")
    let composite = try ImageFile.readRGBA8(dir + "/composite.png")
    #expect(overlay[0, 0] == SIMD4(0, 0, 0, 0))  // nothing drawn: transparent
    #expect(overlay[16, 8] == composite[16, 8] && overlay[16, 8].w == 255)  // the cube: opaque, the same
    // Edges: partly covered, in the cube's grey, not darkened towards black.
    let edges = overlay.pixels.filter { $0.w > 0 && $0.w < 255 }
    #expect(!edges.isEmpty)
    for p in edges { #expect(abs(Int(p.x) - Int(overlay[16, 8].x)) <= 2, "edge \(p)") }
    // Premultiplied on request: colour scaled by alpha.
    let again = try ArsceneRunner.run([
      "render", Fixtures.path("scenes/camera_frame.json"), "--samples", "4", "-o", dir + "/composite.png",
      "--overlay-output", dir + "/premultiplied.png", "--premultiplied",
    ])
    #expect(again.status == 0)
    let premultiplied = try ImageFile.readRGBA8(dir + "/premultiplied.png")
    for (s, p) in zip(overlay.pixels, premultiplied.pixels) where s.w > 0 && s.w < 255 {
      #expect(p.w == s.w && abs(Int(p.x) - Int(s.x) * Int(s.w) / 255) <= 1)
    }
  }

  @Test("lambert writes round(255·max(0, n·l)) on black; unlit white; the cube's front face fills its square")
  func lambertContract() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let model = Fixtures.path("obj/cube_quads.obj")  // unit cube [0, 1]³, front face at z = 1
    // Move the cube so its front face spans x, y in [−0.5, 0.5] at z = 0.
    let place = ["--world-from-model", "1,0,0,0, 0,1,0,0, 0,0,1,0, -0.5,-0.5,-1,1"]
    let lit = try ArsceneRunner.run(
      ["render", "--model", model] + Self.camera + place + [
        "--light", "0,0.6,0.8", "-o", dir + "/lambert.png",
      ])
    #expect(lit.status == 0 && lit.stderr == "")
    let image = try ImageFile.readRGBA8(dir + "/lambert.png")
    // The face spans ±0.5 m at 2 m: ±25 px around the centre → pixels 7…56.
    #expect(image[32, 32] == [204, 204, 204, 255])  // 255 · 0.8 = 204
    #expect(image[7, 7] == [204, 204, 204, 255] && image[56, 56] == [204, 204, 204, 255])
    #expect(image[6, 32] == [0, 0, 0, 255] && image[57, 32] == [0, 0, 0, 255])
    let covered = image.pixels.filter { $0.x != 0 }.count
    #expect(covered == 50 * 50)

    let unlit = try ArsceneRunner.run(
      ["render", "--model", model] + Self.camera + place + ["--shading", "unlit", "-o", dir + "/unlit.png"])
    #expect(unlit.status == 0)
    let white = try ImageFile.readRGBA8(dir + "/unlit.png")
    #expect(white[32, 32] == [255, 255, 255, 255] && white[0, 0] == [0, 0, 0, 255])
  }

  @Test("a model and camera in UTM coordinates draw the image of the same model recentred")
  func utmModel() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The UTM fixture moved by (−455210, −5535210, −420), written out exactly in decimal.
    let recentred = dir + "/recentred.obj"
    try "v 0.30 0.30 0.10\nv 0.90 0.30 0.10\nv 0.30 0.90 0.10\nv 0.90 0.90 0.35\nf 1 2 3\nf 2 4 3\n".write(
      toFile: recentred, atomically: true, encoding: .utf8)
    func render(_ model: String, eye: String, to name: String) throws -> RGBA8Image {
      let outcome = try ArsceneRunner.run(
        [
          "render", "--model", model, "--size", "96,96", "--intrinsics", "120,120,48,48", "--shading",
          "lambert",
          "--world-from-camera", "1,0,0,0, 0,1,0,0, 0,0,1,0, \(eye),1", "--light", "0.3,0.2,1", "-o",
          dir + "/" + name,
        ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      return try ImageFile.readRGBA8(dir + "/" + name)
    }
    let far = try render(
      Fixtures.path("obj/utm_triangles.obj"), eye: "455210.6,5535210.6,422.2", to: "far.png")
    let near = try render(recentred, eye: "0.6,0.6,2.2", to: "near.png")
    #expect(far.pixels.filter { $0.x > 0 }.count > 1_000)
    #expect(far == near)
  }

  @Test("bad input exits 2 with one line and writes no file")
  func badInput() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let model = Fixtures.path("obj/cube_quads.obj")
    let cases: [([String], String)] = [
      (["render", "--model", dir + "/none.obj"] + Self.camera, "none.obj"),
      (
        [
          "render", "--model", model, "--size", "0,64", "--intrinsics", "100,100,32,32",
          "--world-from-camera", "1,0,0,0,0,1,0,0,0,0,1,0,0,0,2,1",
        ], "--size"
      ),
      (
        [
          "render", "--model", model, "--size", "99999,64", "--intrinsics", "100,100,32,32",
          "--world-from-camera", "1,0,0,0,0,1,0,0,0,0,1,0,0,0,2,1",
        ], "--size"
      ),
      (
        [
          "render", "--model", model, "--size", "64,64", "--intrinsics", "100,100,32,32",
          "--world-from-camera", "1,0,0,0,0,1,0,0,0,0,1,0,nan,0,2,1",
        ], "--world-from-camera"
      ),
      (["render", Fixtures.path("scenes/missing_model.json")], "objects[1].model"),
    ]
    for (arguments, fragment) in cases {
      let outcome = try ArsceneRunner.run(arguments + ["-o", dir + "/out.png"])
      // An option's bad value is a usage error (64, ArgumentParser's "Error: " line); a bad file is
      // bad input (2, one "arscene: " line).
      let usage = fragment.hasPrefix("--")
      #expect(outcome.status == (usage ? 64 : 2), "\(arguments)")
      #expect(
        outcome.stderr.hasPrefix(usage ? "Error: " : "arscene: ") && outcome.stderr.contains(fragment),
        "\(outcome.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }
  }

  @Test("a scene renders to a PNG of the requested size")
  func scene() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let outcome = try ArsceneRunner.run(
      [
        "render", "Scenes/zavist.json", "-o", dir + "/z.png", "--width", "120", "--height", "90", "--threads",
        "1",
      ])
    #expect(outcome.status == 0 && outcome.stderr == "")
    let image = try ImageFile.readRGBA8(dir + "/z.png")
    #expect(image.width == 120 && image.height == 90)
    #expect(image[60, 5].z > image[60, 5].x)  // sky at the top
    // The PNG level changes the file, not the pixels.
    for level in ["0", "9"] {
      let again = try ArsceneRunner.run(
        [
          "render", "Scenes/zavist.json", "-o", dir + "/\(level).png", "--width", "120", "--height", "90",
          "--png-level", level,
        ])
      #expect(again.status == 0)
      #expect(try ImageFile.readRGBA8(dir + "/\(level).png") == image, "--png-level \(level)")
    }
    // Out of range: a usage error, as for the other options.
    let bad = try ArsceneRunner.run([
      "render", "Scenes/zavist.json", "-o", dir + "/bad.png", "--png-level", "10",
    ])
    #expect(bad.status == 64 && bad.stderr.contains("--png-level must be from 0 to 9"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/bad.png"))
    let sizes = try ["0", "9"].map {
      try FileManager.default.attributesOfItem(atPath: dir + "/\($0).png")[.size] as! Int
    }
    #expect(sizes[0] > sizes[1])
  }
}
