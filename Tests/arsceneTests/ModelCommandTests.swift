import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// glTF and GLB through the command line: `model stats`, `raycast --mesh`, `render --model`, and
/// a scene whose object is a GLB with its texture inside.
@Suite("arscene with glTF models")
struct ModelCommandTests {
  static let box = Fixtures.path("gltf/Box.glb")
  static let textured = Fixtures.path("gltf/BoxTextured.glb")

  @Test("model stats: format, counts, bounds in metres; a file that is no model exits 2")
  func stats() throws {
    let outcome = try ArsceneRunner.run(["model", "stats", Self.box])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(
      json["format"] as? String == "glb" && json["triangles"] as? Int == 12 && json["nodes"] as? Int == 2)
    let bounds = try #require(json["bounds"] as? [String: [Double]])
    #expect(bounds["min"] == [-0.5, -0.5, -0.5] && bounds["max"] == [0.5, 0.5, 0.5])
    #expect(json["named_nodes"] as? [String] == [] && json["animations"] as? Int == 0)
    let scene = try ArsceneRunner.run(["model", "stats", "Scenes/zavist.json"])
    #expect(scene.status == 2 && scene.stderr.contains("Scenes/zavist.json: no vertices: not an OBJ model"))
  }

  @Test(
    "raycast --mesh Box.glb (and its Draco twin): a ray from 5 m hits the box at t = 4.5",
    arguments: ["gltf/Box.glb", "gltf/Box_Draco.glb"])
  func raycast(_ file: String) throws {
    let outcome = try ArsceneRunner.run(
      ["raycast", "--mesh", Fixtures.path(file), "--decimals", "6"], stdin: "0.1 0.2 5 0 0 -1\n0 3 0 0 1 0\n")
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == 2 && lines[0].hasPrefix("4.500000 ") && lines[1] == "miss", "\(outcome.stdout)")
  }

  @Test("render --model a GLB, and a scene whose object is a GLB with its texture inside")
  func render() throws {
    let folder = try TemporaryFolder()
    let unlit = folder.path + "/box.png"
    let outcome = try ArsceneRunner.run([
      "render", "--model", Self.textured, "--size", "64,64", "--intrinsics", "100,100,32,32",
      "--world-from-camera", "1,0,0,0,0,1,0,0,0,0,1,0,0,0,4,1", "--shading", "unlit", "-o", unlit,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(unlit)
    // The box's front face spans ±0.5 m at 3.5 m: ±14 px about the centre.
    #expect(image[32, 32] != image[2, 2] && image[2, 2] == image[61, 61])
    let scene = try folder.write(
      """
      {"output": {"width": 96, "height": 72}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": 50, "look_at": {"eye": [1.5, 1.2, 2.5], "target": [0, 0, 0]}},
       "objects": [{"name": "box", "model": "\(Self.textured)"}]}
      """, to: "scene.json")
    let rendered = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/scene.png"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let picture = try ImageFile.readRGBA8(folder.path + "/scene.png")
    // The Cesium logo's texture: more than a handful of colours on the box.
    let colours = Set((20..<52).flatMap { y in (30..<66).map { x in picture[x, y] } })
    #expect(colours.count > 20, "\(colours.count)")
  }

  @Test(
    "render --model --shading materials draws the model's textures as a scene file with the same camera and lights does, pixel for pixel"
  )
  func renderWithMaterials() throws {
    let folder = try TemporaryFolder()
    // A camera at (1.2, 1.5, 1.6) m looking at the box's centre, the light from the camera.
    let pose = [0.8, 0, -0.6, 0, -0.36, 0.8, -0.48, 0, 0.48, 0.6, 0.64, 0, 1.2, 1.5, 1.6, 1]
    let camera = ["--size", "96,80", "--intrinsics", "110,110,48,40"]
    let poseText = pose.map { "\($0)" }.joined(separator: ",")
    var images: [String: RGBA8Image] = [:]
    for shading in ["materials", "lambert"] {
      let outcome = try ArsceneRunner.run(
        ["render", "--model", Self.textured] + camera + [
          "--world-from-camera", poseText, "--shading", shading, "-o", folder.path + "/\(shading).png",
        ])
      #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
      images[shading] = try ImageFile.readRGBA8(folder.path + "/\(shading).png")
    }
    let scene = try folder.write(
      """
      {"output": {"width": 96, "height": 80}, "background": {"color": [0, 0, 0]},
       "camera": {"intrinsics": {"fx": 110, "fy": 110, "cx": 48, "cy": 40}, "world_from_camera": \(pose)},
       "lights": {"ambient": [0.2, 0.2, 0.2], "directional": [{"direction": [-0.48, -0.6, -0.64]}]},
       "objects": [{"name": "box", "model": "\(Self.textured)"}]}
      """, to: "scene.json")
    let rendered = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/scene.png"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let textured = try #require(images["materials"]), grey = try #require(images["lambert"])
    #expect(textured.pixels == (try ImageFile.readRGBA8(folder.path + "/scene.png")).pixels)
    // The Cesium logo in colour, where lambert draws grey only.
    let colours = Set(textured.pixels.filter { $0.x != $0.y || $0.y != $0.z })
    #expect(colours.count > 20 && !grey.pixels.contains { $0.x != $0.y || $0.y != $0.z }, "\(colours.count)")
  }

  @Test("render --model --shading materials: a texture that cannot be decoded is named and drawn without")
  func renderWithBrokenTexture() throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("newmtl painted\nmap_Kd painted.png\n", to: "quad.mtl")
    _ = try folder.write("not a PNG", to: "painted.png")
    let obj = try folder.write(
      """
      mtllib quad.mtl
      v -1 -1 0
      v 1 -1 0
      v 1 1 0
      v -1 1 0
      vt 0 0
      vt 1 0
      vt 1 1
      vt 0 1
      usemtl painted
      f 1/1 2/2 3/3 4/4
      """, to: "quad.obj")
    let outcome = try ArsceneRunner.run([
      "render", "--model", obj, "--size", "32,32", "--intrinsics", "40,40,16,16", "--world-from-camera",
      "1,0,0,0,0,1,0,0,0,0,1,0,0,0,3,1", "--shading", "materials", "-o", folder.path + "/quad.png",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("painted.png is drawn without its image"), "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(folder.path + "/quad.png")
    #expect(image[16, 16].x > 0 && image[0, 0] == SIMD4(0, 0, 0, 255))
  }

  static func stats(_ file: String) throws -> [String: Any] {
    let outcome = try ArsceneRunner.run(["model", "stats", file])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  }

  @Test(
    "compressed GLBs (meshopt by gltfpack -cc, Draco) read as their originals: triangles, bounds to the quantization, named nodes",
    arguments: [
      ("gltf/BoxTextured-meshopt.glb", "gltf/BoxTextured.glb", 1e-6),
      ("gltf/Box_Draco.glb", "gltf/Box.glb", 1e-6),
      ("gltf/hand-right-meshopt.glb", "../../Scenes/models/hand-right.glb", 2e-5),
    ])
  func meshopt(_ compressed: String, _ original: String, _ tolerance: Double) throws {
    let (a, b) = (try Self.stats(Fixtures.path(compressed)), try Self.stats(Fixtures.path(original)))
    #expect(a["triangles"] as? Int == b["triangles"] as? Int)
    #expect(
      (a["named_nodes"] as? [String] ?? []).filter { $0 != "world" && $0 != "hand" }.count
        == (b["named_nodes"] as? [String] ?? []).filter { $0 != "world" && $0 != "hand" }.count)
    let (ba, bb) = (
      try #require(a["bounds"] as? [String: [Double]]), try #require(b["bounds"] as? [String: [Double]])
    )
    for key in ["min", "max"] {
      for k in 0..<3 { #expect(abs(ba[key]![k] - bb[key]![k]) < tolerance, "\(compressed) \(key)") }
    }
  }

  /// Whether trimesh (Tools/test installs it into .build/peers/trimesh) loads on Debian's numpy.
  static var trimesh: Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import trimesh"]
    process.environment = ["PYTHONPATH": ArsceneRunner.packageRoot.path + "/.build/peers/trimesh"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExitPromptly()
    return process.terminationStatus == 0
  }

  @Test("model convert: GLB, glTF and OBJ; a GLB we write reads back to the same bytes and loads in trimesh")
  func convert() throws {
    let folder = try TemporaryFolder()
    let (glb, again, gltf, obj) = (
      folder.path + "/box.glb", folder.path + "/again.glb", folder.path + "/box.gltf",
      folder.path + "/box.obj"
    )
    for (input, output) in [(Self.textured, glb), (glb, again), (Self.textured, gltf), (Self.textured, obj)] {
      let outcome = try ArsceneRunner.run(["model", "convert", input, "-o", output])
      #expect(outcome.status == 0, "\(outcome.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: glb)) == Data(contentsOf: URL(fileURLWithPath: again)))
    #expect(FileManager.default.fileExists(atPath: folder.path + "/box-texture-0.png"))
    let original = try Self.stats(Self.textured)
    for file in [glb, gltf, obj] {
      let written = try Self.stats(file)
      #expect(written["triangles"] as? Int == 12)
      #expect(
        written["bounds"] as? [String: [Double]] == original["bounds"] as? [String: [Double]], "\(file)")
    }
    let bad = try ArsceneRunner.run(["model", "convert", Self.textured, "-o", folder.path + "/box.usdz"])
    #expect(bad.status == 64 && bad.stderr.contains(".glb, .gltf or .obj"))
    guard Self.trimesh else { return }
    let script = """
      import sys, trimesh
      for f in sys.argv[1:]:
          m = trimesh.load(f, force="scene").dump(concatenate=True)
          print(len(m.faces), *m.bounds.reshape(-1))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, glb, gltf]
    process.environment = ["PYTHONPATH": ArsceneRunner.packageRoot.path + "/.build/peers/trimesh"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExitPromptly()
    #expect(
      text.split(separator: "\n").map(String.init)
        == Array(repeating: "12 -0.5 -0.5 -0.5 0.5 0.5 0.5", count: 2), "\(text)")
  }

  @Test(
    "model convert keeps a WebP texture's type (.webp beside an OBJ); an image of no known type is refused")
  func convertImageTypes() throws {
    let folder = try TemporaryFolder()
    let webp = Fixtures.path("gltf/webp/webp_only.glb")
    let obj = try ArsceneRunner.run(["model", "convert", webp, "-o", folder.path + "/planes.obj"])
    #expect(obj.status == 0, "\(obj.stderr)")
    let mtl = try String(contentsOfFile: folder.path + "/planes.mtl", encoding: .utf8)
    #expect(
      mtl.contains("map_Kd planes-texture-0.webp") && mtl.contains("map_Kd planes-texture-1.webp"), "\(mtl)")
    let texture = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/planes-texture-0.webp"))
    #expect(texture.starts(with: Array("RIFF".utf8)))
    // A GIF inside a GLB: its bytes kept, but no writer may name their type by guess.
    var asset =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gltf/webp/files/webp_files.gltf"))))
      as! [String: Any]
    let gif = Data("GIF89a".utf8) + Data(repeating: 0, count: 20)
    asset["images"] = [["uri": "data:image/gif;base64," + gif.base64EncodedString()]]
    asset["textures"] = [["source": 0], ["source": 0]]
    asset.removeValue(forKey: "extensionsRequired")
    asset["buffers"] = [
      [
        "byteLength": 268,
        "uri": "data:application/octet-stream;base64,"
          + (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gltf/webp/files/webp_files.bin"))))
          .base64EncodedString(),
      ]
    ]
    let gltf = folder.path + "/gif.gltf"
    try JSONSerialization.data(withJSONObject: asset).write(to: URL(fileURLWithPath: gltf))
    for output in ["gif.glb", "gif.obj"] {
      let refused = try ArsceneRunner.run(["model", "convert", gltf, "-o", folder.path + "/" + output])
      #expect(
        refused.status == 2 && refused.stderr.contains("not a PNG, JPEG, KTX2 or WebP image"),
        "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + output))
    }
  }

  @Test("USDZ through the command line: stats in metres with +Y up, rays against it, and convert to GLB")
  func usdz() throws {
    let file = Fixtures.path("usd/triangle-millimetres.usdz")
    let stats = try Self.stats(file)
    #expect(stats["format"] as? String == "usdz" && stats["triangles"] as? Int == 1)
    let top = try #require((stats["bounds"] as? [String: [Double]])?["max"])
    #expect(abs(top[0] - 0.002) < 1e-9 && abs(top[1] - 0.003) < 1e-9 && top[2] == 0, "\(top)")
    let ray = try ArsceneRunner.run(
      ["raycast", "--mesh", file, "--decimals", "6"], stdin: "0.0005 0.0005 1 0 0 -1\n")
    #expect(ray.status == 0 && ray.stdout.hasPrefix("1.000000 "), "\(ray.stdout)\(ray.stderr)")
    let folder = try TemporaryFolder()
    let converted = try ArsceneRunner.run(["model", "convert", file, "-o", folder.path + "/t.glb"])
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(try Self.stats(folder.path + "/t.glb")["triangles"] as? Int == 1)
  }

  @Test(
    "a sublayer's missing texture is named by a path that exists as written, the layer named from the working folder"
  )
  func missingTextureNamed() throws {
    let folder = try TemporaryFolder()
    try folder.write("#usda 1.0\n(\n    subLayers = [@layers/environment.usda@]\n)\n", to: "scene.usda")
    try folder.write(
      """
      #usda 1.0
      def Mesh "Quad" (prepend apiSchemas = ["MaterialBindingAPI"]) {
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
          rel material:binding = </Looks/Ground>
      }
      def Scope "Looks" {
          def Material "Ground" {
              token outputs:surface.connect = </Looks/Ground/Surface.outputs:surface>
              def Shader "Surface" {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor.connect = </Looks/Ground/Image.outputs:rgb>
                  token outputs:surface
              }
              def Shader "Image" {
                  uniform token info:id = "UsdUVTexture"
                  asset inputs:file = @../maps/ground.exr@
                  float3 outputs:rgb
              }
          }
      }
      """, to: "layers/environment.usda")
    let run = try ArsceneRunner.run(
      ["model", "stats", "scene.usda"], directory: URL(fileURLWithPath: folder.path))
    #expect(run.status == 0, "\(run.stderr)")
    let named = try #require(
      run.stderr.split(separator: "@").dropFirst().first.map(String.init), "\(run.stderr)")
    #expect(named.hasSuffix("maps/ground.exr"), "\(run.stderr)")
    // An absolute name keeps its first slash; a relative one is relative to the working folder.
    let resolved = named.hasPrefix("/") ? named : folder.path + "/" + named
    #expect(
      (resolved as NSString).standardizingPath
        == (folder.path + "/maps/ground.exr" as NSString).standardizingPath, "\(named) in \(run.stderr)")
  }

  @Test("raycast --time: rays meet an animated USDZ where usd-core's stage puts it at that time")
  func raycastAtTime() throws {
    // usd-core 26.11, the stage's meshes flattened at the default time and at time code 24
    // (1 s at 24 a second), rays straight down -Z: the first hits only the still pose, the
    // others only the pose at 1 s (the wave, whose points are only in time samples, and the
    // turned square), each 0.387627476 m down (to the vertices' single precision: 5 decimals).
    let rays = "1.5 0.5 1 0 0 -1\n2 0.5 1 0 0 -1\n2.5 1 1 0 0 -1\n"
    let file = Fixtures.path("usd/animated.usdz")
    func distances(_ extra: [String]) throws -> [String] {
      let run = try ArsceneRunner.run(["raycast", "--mesh", file, "--decimals", "5"] + extra, stdin: rays)
      #expect(run.status == 0, "\(run.stderr)")
      return run.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    }
    #expect(try distances([]) == ["1.00000", "miss", "miss"])
    #expect(try distances(["--time", "1"]) == ["miss", "0.38763", "0.38763"])
  }

  @Test(
    "a USD layer opened by a relative path from another folder finds its textures, and so does the layer it references"
  )
  func usdTexturesByRelativePath() throws {
    // As a user types it: `arscene model stats scene/root.usda` from the folder above. The
    // root's textures were once looked for in scene/scene/textures (its anchored names read
    // again from its folder) and drawn white with a warning; a referenced layer's were found.
    let folder = try TemporaryFolder()
    let image = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("images/gradient.jpg")))
    try FileManager.default.createDirectory(
      atPath: folder.path + "/scene/textures", withIntermediateDirectories: true)
    try image.write(to: URL(fileURLWithPath: folder.path + "/scene/textures/wood.jpg"))
    try folder.write(
      Self.texturedQuad("World", texture: "textures/wood.jpg", reference: "./sub/part.usda"),
      to: "scene/root.usda")
    try folder.write(Self.texturedQuad("Part", texture: "../textures/wood.jpg"), to: "scene/sub/part.usda")
    for (directory, path) in [(folder.path, "scene/root.usda"), (folder.path + "/scene", "root.usda")] {
      let run = try ArsceneRunner.run(
        ["model", "stats", path], directory: URL(fileURLWithPath: directory),
        environment: ["ARSCENE_ALLOW_PATH": ""])
      #expect(run.status == 0 && run.stderr.isEmpty, "\(path): \(run.stderr)")
      #expect(run.stdout.contains("\"triangles\" : 4"), "\(run.stdout)")
    }
    // Still confined to the layer's folder: a texture above it is named and not read.
    try image.write(to: URL(fileURLWithPath: folder.path + "/outside.jpg"))
    try folder.write(Self.texturedQuad("World", texture: "../outside.jpg"), to: "scene/leak.usda")
    let leak = try ArsceneRunner.run(
      ["model", "stats", "scene/leak.usda"], directory: URL(fileURLWithPath: folder.path),
      environment: ["ARSCENE_ALLOW_PATH": ""])
    #expect(leak.status == 0 && leak.stderr.contains("leads outside the file's folder"), "\(leak.stderr)")
    // The texture really is read: without it, the warning names it.
    try FileManager.default.removeItem(atPath: folder.path + "/scene/textures/wood.jpg")
    let missing = try ArsceneRunner.run(
      ["model", "stats", "scene/root.usda"], directory: URL(fileURLWithPath: folder.path))
    #expect(missing.stderr.contains("texture @textures/wood.jpg@"), "\(missing.stderr)")
  }

  /// A layer whose prim `name` is a textured quad (the texture named `texture`), referencing
  /// the layer `reference` under it when given.
  static func texturedQuad(_ name: String, texture: String, reference: String? = nil) -> String {
    let part = reference.map { "    def Xform \"Part\" (prepend references = @\($0)@)\n    {\n    }\n" } ?? ""
    return """
      #usda 1.0
      (
          defaultPrim = "\(name)"
          metersPerUnit = 1
      )
      def Xform "\(name)"
      {
          def Mesh "Quad" (prepend apiSchemas = ["MaterialBindingAPI"])
          {
              int[] faceVertexCounts = [4]
              int[] faceVertexIndices = [0, 1, 2, 3]
              point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
              texCoord2f[] primvars:st = [(0, 0), (1, 0), (1, 1), (0, 1)] (interpolation = "vertex")
              rel material:binding = </\(name)/Wood>
          }
      \(part)    def Material "Wood"
          {
              token outputs:surface.connect = </\(name)/Wood/Surface.outputs:surface>
              def Shader "Surface"
              {
                  uniform token info:id = "UsdPreviewSurface"
                  color3f inputs:diffuseColor.connect = </\(name)/Wood/Image.outputs:rgb>
                  token outputs:surface
              }
              def Shader "Coordinates"
              {
                  uniform token info:id = "UsdPrimvarReader_float2"
                  string inputs:varname = "st"
                  float2 outputs:result
              }
              def Shader "Image"
              {
                  uniform token info:id = "UsdUVTexture"
                  asset inputs:file = @\(texture)@
                  float2 inputs:st.connect = </\(name)/Wood/Coordinates.outputs:result>
                  float3 outputs:rgb
              }
          }
      }

      """
  }

  @Test("a scene object's points from its GLB's named empties: hit selects LI4 as with the point file")
  func sceneTargetsFromModel() throws {
    let folder = try TemporaryFolder()
    let original = try String(
      contentsOfFile: ArsceneRunner.packageRoot.path + "/Scenes/acupressure-hand.json", encoding: .utf8)
    let models = ArsceneRunner.packageRoot.path + "/Scenes/models/"
    let glb = original.replacingOccurrences(
      of: "\"models/hand-right.obj\"", with: "\"\(models)hand-right.glb\""
    )
    .replacingOccurrences(
      of: "\"file\": \"models/hand-right-points.json\"", with: "\"from_model\": true, \"radius\": 0.005")
    let scene = try folder.write(glb, to: "hand-glb.json")
    let outcome = try ArsceneRunner.run(["hit", "--scene", scene, "--tap", "430,292"])
    #expect(
      outcome.status == 0 && outcome.stdout.contains(#""hit":"LI4""#), "\(outcome.stdout)\(outcome.stderr)")
    let both = try folder.write(
      glb.replacingOccurrences(
        of: "\"from_model\": true", with: "\"from_model\": true, \"file\": \"x.json\""),
      to: "both.json")
    let refused = try ArsceneRunner.run(["hit", "--scene", both, "--tap", "430,292"])
    #expect(
      refused.status == 2 && refused.stderr.contains("objects[0].points: give a point file"),
      "\(refused.stderr)")
  }

  @Test(
    "a textured USDZ (usd-core's package: face-varying st, a UsdUVTexture PNG inside) renders its texture the right way up",
    arguments: ["textured-quad.usdz", "textured-quad-text.usdz"])
  func texturedUSDZ(_ file: String) throws {
    let folder = try TemporaryFolder()
    let scene = try folder.write(
      """
      {"output": {"width": 64, "height": 64}, "background": {"color": [0, 0, 0]},
       "camera": {"vertical_fov_deg": 50, "look_at": {"eye": [0.5, 0.5, 1.6], "target": [0.5, 0.5, 0]}},
       "lights": {"ambient": [1, 1, 1], "directional": []},
       "objects": [{"name": "q", "model": "\(Fixtures.path("usd/" + file))", "cull_back_faces": false}]}
      """, to: "quad.json")
    let outcome = try ArsceneRunner.run(["render", scene, "-o", folder.path + "/quad.png"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(folder.path + "/quad.png")
    // The PNG's rows: red, green above blue, white; st's origin at the quad's bottom left.
    func dominant(_ x: Int, _ y: Int) -> Int {
      let p = image[x, y]
      return [Int(p.x), Int(p.y), Int(p.z)].enumerated().max { $0.element < $1.element }!.offset
    }
    #expect(
      dominant(14, 14) == 0 && dominant(50, 14) == 1 && dominant(14, 50) == 2,
      "\(image[14, 14]) \(image[50, 14]) \(image[14, 50])")
    // White, blended with its neighbours by the bilinear filter: the brightest corner.
    func sum(_ x: Int, _ y: Int) -> Int { Int(image[x, y].x) + Int(image[x, y].y) + Int(image[x, y].z) }
    #expect(sum(50, 50) > Swift.max(sum(14, 14), sum(50, 14), sum(14, 50)))
  }
}
