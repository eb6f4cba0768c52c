import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRender
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

@Suite("Scenes and golden images")
struct SceneRenderTests {
  static let packageRoot = URL(fileURLWithPath: Fixtures.root).deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// Compares with the golden PNG beside this file; `ARSCENE_RECORD_GOLDEN=1` re-records it
  /// (never silently: the test then fails, saying so).
  func expectGolden(_ image: RGBA8Image, _ name: String, minimumPSNR: Double = 40) throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Golden/\(name).png"
    ).path
    if ProcessInfo.processInfo.environment["ARSCENE_RECORD_GOLDEN"] == "1" {
      try ImageFile.writePNG(image, to: path)
      Issue.record("re-recorded \(path); unset ARSCENE_RECORD_GOLDEN and run again")
      return
    }
    let golden = try ImageFile.readRGBA8(path)
    #expect(golden.width == image.width && golden.height == image.height)
    var squared = 0.0
    for (a, b) in zip(golden.pixels, image.pixels) {
      let d =
        SIMD4<Double>(Double(a.x), Double(a.y), Double(a.z), Double(a.w))
        - SIMD4(Double(b.x), Double(b.y), Double(b.z), Double(b.w))
      squared += (d * d).sum() / 4
    }
    let mse = squared / Double(image.pixels.count)
    let psnr = mse == 0 ? Double.infinity : 10 * Double.log10(255 * 255 / mse)
    #expect(psnr >= minimumPSNR, "PSNR \(psnr) dB against \(path)")
  }

  @Test("the Závist scene matches its golden image")
  func zavistGolden() throws {
    let scene = try Scene.load(path: Self.packageRoot + "/Scenes/zavist.json", width: 240, height: 180)
    let renderer = FrameRenderer()  // as the README shows it
    let image = try scene.render(settings: RenderSettings(supersampling: 2, threads: 2), with: renderer)
    try expectGolden(image, "zavist-240x180")
    // The next frame of a recording, drawn into the last one's pixels (8-bit samples, no AA).
    let draws = try scene.drawCalls()
    var frame = image
    try renderer.render(draws, camera: scene.renderCamera, shading: .lit(scene.lighting), into: &frame)
    #expect(frame == (try Renderer.render(draws, camera: scene.renderCamera, shading: .lit(scene.lighting))))
  }

  @Test(
    "scene errors name the file and the JSON field",
    arguments: [
      ("missing_field.json", "objects[0].model: missing"),
      ("bad_transform.json", "objects[0].transform.translation: expected 3 finite numbers, got 2"),
      ("missing_model.json", "objects[1].model: "),
      ("truncated.json", "truncated.json: "),
      (
        "typo.json",
        "objects[0].tranform: unknown field (allowed: anchor, crs, cull_back_faces, label, model, name, points, transform, world_from_model)"
      ),
      ("anchor.json", "objects[0].anchor.geo: a geo anchor needs the scene's geo.origin"),
      ("far_anchor.json", "objects[0].anchor.geo: is 13"),
      ("marker_anchor.json", "objects[0].anchor.marker.corners: missing"),
    ])
  func errors(_ name: String, _ message: String) {
    let path = Fixtures.path("scenes/\(name)")
    #expect {
      try Scene.load(path: path)
    } throws: { error in
      let text = String(describing: error)
      return text.hasPrefix(path) && text.contains(message)
    }
  }

  @Test("a camera frame composites behind the model (AR overlay), resampled to the output size")
  func cameraFrame() throws {
    let scene = try Scene.load(path: Fixtures.path("scenes/camera_frame.json"))
    let frame = try ImageFile.readRGBA8(Fixtures.path("images/gradient.jpg"))  // 16×8, scaled ×2
    let image = try scene.render()
    // Corners show the frame (within sRGB round trip and resampling), the centre the white cube.
    for (x, y) in [(0, 0), (31, 0), (0, 15), (31, 15)] {
      let want = SIMD4<Int>(truncatingIfNeeded: frame[x / 2, y / 2]),
        got = SIMD4<Int>(truncatingIfNeeded: image[x, y])
      let d = want &- got
      #expect(max(abs(d.x), abs(d.y), abs(d.z)) <= 12, "pixel \(x), \(y): \(got) vs frame \(want)")
    }
    // The cube has no MTL: the default material's Kd 0.8 under ambient light 1, sRGB-encoded.
    let grey = SRGB.encode8(0.8)
    #expect(image[16, 8] == SIMD4(grey, grey, grey, 255))
  }

  @Test(
    "a frame of the intrinsics' size composites without resampling; another size is an error unless resampled"
  )
  func frameSize() throws {
    let folder = try TemporaryFolder()
    // A 32×16 frame of distinct colours, the size the intrinsics are for.
    let pixels = (0..<(32 * 16)).map { (i: Int) -> SIMD4<UInt8> in
      let (r, g, b) = (UInt8(i % 32 * 8), UInt8(i / 32 * 16), UInt8(i * 7 % 256))
      return SIMD4(r, g, b, 255)
    }
    let frame = RGBA8Image(width: 32, height: 16, pixels: pixels)
    try ImageFile.writePNG(frame, to: folder.path + "/frame.png")
    let text = try String(contentsOfFile: Fixtures.path("scenes/camera_frame.json"), encoding: .utf8)
    let model = Fixtures.path("obj/cube_quads.obj")
    func scene(_ background: String) throws -> String {
      try folder.write(
        text.replacingOccurrences(
          of: #""image": "../images/gradient.jpg", "resample": true"#, with: background
        ).replacingOccurrences(of: "../obj/cube_quads.obj", with: model), to: "scene-\(background.count).json"
      )
    }
    let exact = try Scene.load(path: try scene(#""image": "frame.png""#)).render()
    // Where the cube is not, the frame's own pixels, byte for byte.
    var same = 0
    for (a, b) in zip(frame.pixels, exact.pixels) where a == b { same += 1 }
    #expect(same > 32 * 16 / 2 && exact[0, 0] == frame[0, 0] && exact[31, 15] == frame[31, 15])
    // The gradient is 16×8: refused, naming the field and both sizes, unless resampled.
    let wrongSize = try scene(#""image": "\#(Fixtures.path("images/gradient.jpg"))""#)
    #expect {
      _ = try Scene.load(path: wrongSize)
    } throws: { error in
      "\(error)".contains("background.image") && "\(error)".contains("16×8") && "\(error)".contains("32×16")
    }
  }

  @Test("the output size can be overridden; the intrinsics scale with it")
  func sizeOverride() throws {
    let scene = try Scene.load(path: Self.packageRoot + "/Scenes/zavist.json", width: 480, height: 360)
    #expect(scene.camera.intrinsics.width == 480 && abs(scene.camera.intrinsics.cx - 240) < 1e-3)
  }
}

/// Geo-anchored objects land where their coordinates say.
@Suite("Geo anchors in scenes")
struct GeoAnchorSceneTests {
  @Test("the Závist buildings sit at their ENU positions, turned by their headings")
  func zavistPlacement() throws {
    let scene = try Scene.load(path: Fixtures.path("../../Scenes/zavist.json"))
    // house 1 is 9 m west and 18 m north of the gate: world (−9, 0, −18), heading −10° (yaw +10°).
    let house = scene.objects[2].worldFromModel
    let t = house.columns.3
    #expect(abs(t.x + 9) < 1e-3 && abs(t.y) < 1e-3 && abs(t.z + 18) < 1e-3)
    let forward = house * SIMD4<Float>(0, 0, -1, 0)
    #expect(abs(atan2(forward.x, -forward.z) * 180 / .pi + 10) < 1e-3)
  }
}

/// Marker and plane anchors in scenes.
@Suite("Pose anchors in scenes")
struct PoseAnchorSceneTests {
  @Test("a marker-anchored card projects back onto the corners it was placed by")
  func markerCard() throws {
    let scene = try Scene.load(path: Fixtures.path("../../Scenes/marker-card.json"))
    let card = scene.objects[0].worldFromModel
    let corners = scene.file.objects[0].anchor!.marker!.corners
    let camera = scene.camera
    for (i, c) in [SIMD2<Float>(-0.03, 0.03), [0.03, 0.03], [0.03, -0.03], [-0.03, -0.03]].enumerated() {
      let world = card * SIMD4<Float>(c.x, c.y, 0, 1)
      let pixel = try #require(camera.project(SIMD3(Double(world.x), Double(world.y), Double(world.z)))).pixel
      #expect(
        abs(pixel.x - corners[2 * i]) < 0.01 && abs(pixel.y - corners[2 * i + 1]) < 0.01,
        "corner \(i): \(pixel)")
    }
  }

  @Test("a plane-anchored hand stands on the table found in the scan, not on the floor")
  func handOnTable() throws {
    let scene = try Scene.load(path: Fixtures.path("../../Scenes/hand-on-table.json"))
    let anchorY = scene.objects[1].worldFromModel.columns.3.y
    #expect(abs(anchorY - (0.74 + 0.016)) < 0.002, "the hand's origin is at y = \(anchorY)")
    #expect(scene.targets.count == 11)
  }

  @Test("anchors are exclusive and their fields checked")
  func anchorErrors() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "arscene-anchor-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = Fixtures.path("obj/cube_quads.obj")
    let camera =
      "\"camera\": {\"vertical_fov_deg\": 60, \"look_at\": {\"eye\": [0, 1, 5], \"target\": [0, 0, 0]}}"
    let cases: [(String, String)] = [
      ("{\"marker\": {\"size\": 0.1, \"corners\": [1, 2, 3]}}", "objects[0].anchor.marker.corners"),
      (
        "{\"marker\": {\"size\": 0.1, \"corners\": [10, 10, 10, 10, 20, 20, 10, 20]}}",
        "objects[0].anchor.marker"
      ),
      ("{\"plane\": {\"points\": \"missing.xyz\"}}", "objects[0].anchor.plane.points"),
      (
        "{\"plane\": {\"points\": \"x.xyz\"}, \"marker\": {\"size\": 0.1, \"corners\": [1,2,3,4,5,6,7,8]}}",
        "exactly one"
      ),
    ]
    for (anchor, expected) in cases {
      let path = dir.appendingPathComponent("s.json").path
      try
        "{\"output\": {\"width\": 64, \"height\": 48}, \(camera), \"objects\": [{\"model\": \"\(model)\", \"anchor\": \(anchor)}]}"
        .write(toFile: path, atomically: true, encoding: .utf8)
      #expect {
        try Scene.load(path: path)
      } throws: { String(describing: $0).contains(expected) }
    }
  }
}
