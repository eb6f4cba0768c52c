import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRender
import ARReplay
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import LitOracle
import MesaOracle

/// World-space triangles of draw calls, flattened for OSMesa, with per-triangle Lambert colours
/// computed exactly as ARScene's `.lambert` mode computes them.
struct FlatTriangles {
  var positions: [Float] = []
  var colors: [UInt8] = []
  var count: Int { positions.count / 9 }

  init(_ draws: [DrawCall], towardsLight l: SIMD3<Float>?) {
    for draw in draws {
      let mesh = draw.mesh
      for t in 0..<mesh.triangleCount {
        let (a, b, c) = mesh.triangle(t)
        let p = [a, b, c].map { draw.worldFromModel.transformPoint(mesh.positions[$0]) }
        var byte: UInt8 = 255
        if let l {
          let n = (p[1] - p[0]).cross(p[2] - p[0])
          let g = n.length > 0 ? Swift.max(0, (n / n.length).dot(l)) : 0
          byte = UInt8((Swift.min(g, 1) * 255).rounded(.toNearestOrEven))
        }
        for v in p { positions += [v.x, v.y, v.z] }
        colors += [UInt8](repeating: byte, count: 9)
      }
    }
  }
}

/// Renders with llvmpipe through OSMesa.
final class Mesa {
  let context: OpaquePointer
  let width: Int, height: Int

  init(width: Int, height: Int) {
    setenv("LP_NUM_THREADS", "2", 0)
    context = mesa_oracle_create(Int32(width), Int32(height))!
    self.width = width
    self.height = height
  }

  deinit { mesa_oracle_destroy(context) }

  func draw(_ triangles: FlatTriangles, clipFromWorld: Matrix4<Float>) {
    mesa_oracle_draw(
      context, triangles.positions, triangles.colors, triangles.count, clipFromWorld.columnMajorElements)
  }

  func read() -> RGBA8Image {
    var pixels = [SIMD4<UInt8>](repeating: .zero, count: width * height)
    pixels.withUnsafeMutableBytes {
      mesa_oracle_read(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }
}

/// How two images differ: the share of pixels within ±2 in every channel, PSNR, exact matches.
struct ImageComparison: CustomStringConvertible {
  var withinTwo: Double, psnr: Double, identical: Int, total: Int
  init(_ a: RGBA8Image, _ b: RGBA8Image) {
    var within = 0, same = 0, squared = 0.0
    for (p, q) in zip(a.pixels, b.pixels) {
      let d = SIMD4<Int32>(truncatingIfNeeded: p) &- SIMD4<Int32>(truncatingIfNeeded: q)
      let m = Swift.max(Swift.max(abs(d.x), abs(d.y)), abs(d.z))
      if m <= 2 { within += 1 }
      if m == 0 { same += 1 }
      squared += Double(d.x * d.x + d.y * d.y + d.z * d.z) / 3
    }
    total = a.pixels.count
    withinTwo = Double(within) / Double(total)
    identical = same
    let mse = squared / Double(total)
    psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }
  var description: String {
    String(
      format: "%.3f%% of pixels within ±2, PSNR %.1f dB, %d of %d identical", withinTwo * 100, psnr,
      identical, total)
  }
}

/// Tools/crosscheck-llvmpipe, ARScene against llvmpipe without anti-aliasing: which triangle
/// owns a sample centre on a shared edge (exactly), and every shipped scene (Scenes/*.json)
/// unlit (exact coverage), in flat Lambert, and lit as the scene asks (textures, Blinn–Phong,
/// sRGB). Returns whether every check passes.
func crosscheckLlvmpipe() -> Bool {
  let light = SIMD3<Float>(0.3, 0.8, 0.5).normalized()
  let scenes = (try? FileManager.default.contentsOfDirectory(atPath: "Scenes")) ?? []
  let paths = scenes.filter { $0.hasSuffix(".json") }.sorted().map { "Scenes/\($0)" }
  if paths.isEmpty {
    print("no scenes found in Scenes/ (run from the repository's root)")
    return false
  }
  let grid = fillRuleDifferences(mesa: Mesa(width: 64, height: 64), size: 64)
  print(
    "fill rule: \(grid.triangles) triangles with edges through pixel centres, each drawn alone: "
      + "\(grid.differing) pixels owned differently \(grid.differing == 0 ? "ok" : "FAIL")")
  var ok = grid.differing == 0
  for path in paths {
    let scene = try! Scene.load(path: path)
    let draws = (try! scene.drawCalls()).map { d -> DrawCall in
      var d = d
      d.cullBackFaces = false  // GL's default: no culling
      return d
    }
    let mesa = Mesa(width: scene.camera.intrinsics.width, height: scene.camera.intrinsics.height)
    for (mode, shading, l) in [
      ("unlit", ShadingMode.unlit, nil), ("lambert", .lambert(towardsLight: light), light),
    ] {
      let ours = try! Renderer.render(draws, camera: scene.renderCamera, shading: shading)
      mesa.draw(FlatTriangles(draws, towardsLight: l), clipFromWorld: scene.renderCamera.clipFromWorld)
      let theirs = mesa.read()
      let c = ImageComparison(ours, theirs)
      let pass = mode == "unlit" ? c.identical == c.total : (c.withinTwo >= 0.995 && c.psnr >= 40)
      ok = report(path, mode, ours, theirs, pass: pass) && ok
    }
    // As the scene is rendered: lit, textured, culled as its materials ask, sRGB output.
    guard let lit = MesaLit(width: mesa.width, height: mesa.height) else {
      print("\(path) lit: llvmpipe through EGL with float textures is not available FAIL")
      ok = false
      continue
    }
    do {
      let theirs = try lit.render(scene)
      let ours = try! Renderer.render(
        try! scene.drawCalls(), camera: scene.renderCamera, shading: .lit(scene.lighting),
        background: scene.background,
        backgroundColor: scene.backgroundColor)
      let c = ImageComparison(ours, theirs)
      ok = report(path, "lit", ours, theirs, pass: c.withinTwo >= 0.995 && c.psnr >= 40) && ok
    } catch {
      print("\(path) lit: not compared: \(error) FAIL")
      ok = false
    }
  }
  return ok
}

/// Prints how `ours` and `theirs` compare, and writes both beside the build when they differ
/// beyond the tolerance; returns `pass`.
private func report(_ path: String, _ mode: String, _ ours: RGBA8Image, _ theirs: RGBA8Image, pass: Bool)
  -> Bool
{
  print("\(path) \(mode): \(ImageComparison(ours, theirs)) \(pass ? "ok" : "FAIL")")
  if !pass {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    try? ImageFile.writePNG(ours, to: ".build/crosscheck-\(name)-\(mode)-ours.png")
    try? ImageFile.writePNG(theirs, to: ".build/crosscheck-\(name)-\(mode)-llvmpipe.png")
  }
  return pass
}

/// The rasterizer against llvmpipe (2 threads each), same triangles, same resolution.
func renderWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  var rng = SplitMix64(seed: 77)
  let (w, h) = quick ? (320, 240) : (1280, 720)
  let camera = RenderCamera(
    intrinsics: CameraIntrinsics(
      fx: Float(w), fy: Float(w), cx: Float(w) / 2, cy: Float(h) / 2, width: w, height: h),
    worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 2]), near: 0.1, far: 100)
  let settings = RenderSettings(supersampling: 1, threads: 2)

  // Small triangles: ~2 px each, scattered over the image at 1 m in front of the camera.
  let smallCount = quick ? 20_000 : 500_000
  let small = smallTriangles(smallCount, imageWidth: w, random: &rng)
  rows.append(
    renderRow("\(smallCount / 1000)k small triangles (~2 px) at \(w)x\(h), unlit", small, camera, settings))

  // Full-screen fill: 32 overlapping screen-sized quads back to front (every one passes depth).
  let (fillPositions, fillIndices) = fullScreenLayers()
  let fill = try! DrawCall(
    mesh: Mesh(
      positions: fillPositions, normals: Array(repeating: [0, 0, 1], count: fillPositions.count),
      indices: fillIndices),
    cullBackFaces: false)
  rows.append(renderRow("32 full-screen layers at \(w)x\(h), untextured", fill, camera, settings))
  for filter in [TextureFilter.bilinear, .trilinear] {
    rows.append(
      texturedRow(
        "32 full-screen layers at \(w)x\(h), \(filter.rawValue) textured",
        texturedLayers(fillPositions, indices: fillIndices, filter: filter, camera: camera), camera,
        shadingEveryLayer(settings)))
  }

  // A 100k-triangle model: a sphere of 224×224 quads.
  let sphere = sphereMesh(segments: quick ? 60 : 224)
  let model = try! DrawCall(mesh: sphere, worldFromModel: .scale([0.8, 0.8, 0.8]), cullBackFaces: false)
  rows.append(
    renderRow(
      "\(sphere.triangleCount / 1000)k-triangle model at \(w)x\(h), lambert", model, camera, settings,
      lambert: true))
  // The same model textured (the texture wraps 4 times around, twice pole to pole).
  var texturedSphere = sphere
  let n = quick ? 60 : 224
  texturedSphere.texcoords = (0...n).flatMap { j in
    (0...n).map { i in SIMD2(Float(i) / Float(n) * 4, Float(j) / Float(n) * 2) }
  }
  rows.append(
    texturedRow(
      "\(sphere.triangleCount / 1000)k-triangle model at \(w)x\(h), trilinear textured", texturedSphere,
      camera,
      settings, worldFromModel: .scale([0.8, 0.8, 0.8])))

  // The shipped Závist scene at the phone-frame size, flat Lambert on both sides (OSMesa has no
  // multisampling, so no anti-aliasing here), no culling as in GL.
  let scene = try! Scene.load(
    path: "Scenes/zavist.json", width: quick ? 480 : 1920, height: quick ? 360 : 1440)
  let draws = (try! scene.drawCalls()).map { d -> DrawCall in
    var d = d
    d.cullBackFaces = false
    return d
  }
  let size = "\(scene.camera.intrinsics.width)x\(scene.camera.intrinsics.height)"
  rows.append(
    renderRow("Závist scene at \(size), lambert, no AA", draws, scene.renderCamera, settings, lambert: true))
  rows.append(antialiasedRow(draws, scene.renderCamera, label: size))

  // The second core on fill-bound frames: ours on 2 threads against ours on 1, each next to
  // the same frame against two frames at once (a thread each), which shares nothing.
  let bilinear = TexturedDraw(
    texturedLayers(fillPositions, indices: fillIndices, filter: .bilinear, camera: camera))
  let fills: [(String, DrawCall, ShadingMode, RenderSettings)] = [
    ("untextured", fill, .unlit, settings),
    ("bilinear textured", bilinear.draw, .lit(TexturedDraw.lighting), shadingEveryLayer(settings)),
  ]
  for (label, draw, shading, settings) in fills {
    let name = "32 full-screen layers at \(w)x\(h), \(label)"
    rows.append(secondCoreRow(name + ", 2 threads", [draw], camera, shading: shading, settings: settings))
    rows.append(
      splitAgainstPairRow(
        name + ", 2 threads against two frames at once", [draw], camera, shading: shading, settings: settings)
    )
  }
  rows.append(machineScalingRow())
  return rows
}

/// The window the second-core rows below are timed in: as many rounds as fit in 3 s, up to 60
/// (each side's fastest kept). The shared machine runs vector code at up to half speed in phases
/// of a second or so; with five rounds, one during the 2-thread runs read as 1.4×, and with 30
/// (1.5 s) the untextured fill read 1.50–1.62× in three runs of one morning, where 40 to 60
/// rounds read 1.70–1.89× in six runs of seven.
let secondCoreWindow = (budget: 3.0, maximumRounds: 60)

/// Ours on 2 threads against ours on 1, the same frame, timed in ``secondCoreWindow``.
func secondCoreRow(
  _ name: String, _ draws: [DrawCall], _ camera: RenderCamera, shading: ShadingMode,
  settings: RenderSettings
) -> Row {
  let single = FrameRenderer(), double = FrameRenderer()
  var one = settings, two = settings
  (one.threads, two.threads) = (1, 2)
  var image = RGBA8Image(width: 0, height: 0, pixels: [])
  let row = compare(
    name, peer: "ours on 1 thread", rounds: 15, budget: secondCoreWindow.budget,
    maximumRounds: secondCoreWindow.maximumRounds
  ) {
    try! double.render(draws, camera: camera, shading: shading, settings: two, into: &image)
  } peerRun: {
    try! single.render(draws, camera: camera, shading: shading, settings: one, into: &image)
  }
  blackHole(image)
  return row
}

/// One frame on 2 threads against two frames at once, each on 1 thread of its own, round by
/// round; the peer's time is per frame (half the pair's). Both sides keep both cores busy, so a
/// slow phase of the shared machine slows both alike, and the ratio says what splitting a frame
/// over tiles costs against work that shares nothing: 1 is nothing, and a second-core shortfall
/// that this row does not show is the machine's. (Timed one after the other, a row of two
/// frames at once against one frame on 1 thread read 1.31–1.95× as the machine's phases came
/// and went, too noisy to set the 2-thread row against.)
func splitAgainstPairRow(
  _ name: String, _ draws: [DrawCall], _ camera: RenderCamera, shading: ShadingMode,
  settings: RenderSettings
) -> Row {
  nonisolated(unsafe) let renderers = [FrameRenderer(), FrameRenderer(), FrameRenderer()]
  var one = settings, two = settings
  (one.threads, two.threads) = (1, 2)
  let (single, double) = (one, two)
  nonisolated(unsafe) var outputs = [RGBA8Image](
    repeating: RGBA8Image(width: 0, height: 0, pixels: []), count: 3)
  let row = compare(
    name, peer: "two frames at once, a thread each (per frame)", rounds: 15,
    budget: secondCoreWindow.budget, maximumRounds: secondCoreWindow.maximumRounds
  ) {
    try! renderers[2].render(draws, camera: camera, shading: shading, settings: double, into: &outputs[2])
  } peerRun: {
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      try! renderers[k].render(draws, camera: camera, shading: shading, settings: single, into: &outputs[k])
    }
  }
  blackHole(outputs)
  var perFrame = row
  perFrame.peer_s /= 2
  perFrame.ratio *= 2
  return perFrame
}

/// What this machine's second core gives code that needs no memory: vector arithmetic split
/// over 2 threads, against the whole of it on 1. The ceiling for the second-core rows above at
/// that moment. Its two virtual cores may be hyperthreads whose other halves a shared host
/// gives to other work: code that keeps a core's vector units busy, as a rasterizer does, then
/// runs at up to half speed in phases, and this loop sees it too (a loop of one dependency
/// chain, which leaves the units mostly idle, read 2× throughout).
func machineScalingRow() -> Row {
  let iterations = 8_000_000
  return compare(
    "vector arithmetic needing no memory, 2 threads", peer: "the same on 1 thread", rounds: 15,
    budget: secondCoreWindow.budget, maximumRounds: secondCoreWindow.maximumRounds
  ) {
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      blackHole(independentChains(iterations / 2, seed: UInt32(worker + 1)))
    }
  } peerRun: {
    blackHole(independentChains(iterations, seed: 1))
  }
}

/// Eight independent chains of four-lane rotates, xors and adds, `count` steps: 24 vector
/// operations a step against a chain's 3-cycle latency, so bound by the core's throughput.
@inline(never)
func independentChains(_ count: Int, seed: UInt32) -> UInt32 {
  var chains = (0..<8).map { k in SIMD4<UInt32>(1, 2, 3, 4) &* (seed &+ UInt32(k)) }
  var a0 = chains[0], a1 = chains[1], a2 = chains[2], a3 = chains[3]
  var a4 = chains[4], a5 = chains[5], a6 = chains[6], a7 = chains[7]
  @inline(__always) func step(_ a: SIMD4<UInt32>, _ i: SIMD4<UInt32>) -> SIMD4<UInt32> {
    a &+ (SIMD4(a.y, a.z, a.w, a.x) ^ i)
  }
  for i in 0..<UInt32(truncatingIfNeeded: count) {
    let v = SIMD4(repeating: i)
    (a0, a1, a2, a3) = (step(a0, v), step(a1, v), step(a2, v), step(a3, v))
    (a4, a5, a6, a7) = (step(a4, v), step(a5, v), step(a6, v), step(a7, v))
  }
  chains = [a0, a1, a2, a3, a4, a5, a6, a7]
  return chains.reduce(SIMD4<UInt32>.zero, &+).wrappedSum()
}

/// The Závist scene with 4 samples a pixel: ours 2×2 supersampling (every sample shaded,
/// box-filtered), llvmpipe 4× MSAA through EGL (coverage per sample, shading per pixel, which
/// for flat colours is the same picture).
func antialiasedRow(_ draws: [DrawCall], _ camera: RenderCamera, label: String) -> Row {
  let light = SIMD3<Float>(0.3, 0.8, 0.5).normalized()
  let triangles = FlatTriangles(draws, towardsLight: light)
  let (w, h) = (camera.intrinsics.width, camera.intrinsics.height)
  setenv("LP_NUM_THREADS", "2", 0)
  let name = "Závist scene at \(label), lambert, 4 samples a pixel"
  guard let mesa = mesa_egl_oracle_create(Int32(w), Int32(h), 4) else {
    return Row(
      workload: name + " (EGL unavailable)", ours_s: .nan, peer: "Mesa llvmpipe", peer_s: .nan, ratio: .nan)
  }
  defer { mesa_egl_oracle_destroy(mesa) }
  let renderer = FrameRenderer()
  var image = RGBA8Image(width: 0, height: 0, pixels: [])
  let clip = camera.clipFromWorld.columnMajorElements
  let row = compare(name, peer: "Mesa llvmpipe 4x MSAA, EGL (2 threads)", rounds: 5, budget: 1.5) {
    try! renderer.render(
      draws, camera: camera, shading: .lambert(towardsLight: light),
      settings: RenderSettings(supersampling: 2, threads: 2), into: &image)
  } peerRun: {
    mesa_egl_oracle_draw(mesa, triangles.positions, triangles.colors, triangles.count, clip)
  }
  var theirs = [SIMD4<UInt8>](repeating: .zero, count: w * h)
  theirs.withUnsafeMutableBytes {
    mesa_egl_oracle_read(mesa, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }
  antialiasedAgreement = ImageComparison(image, RGBA8Image(width: w, height: h, pixels: theirs))
  return row
}

/// How the anti-aliased images of ours and llvmpipe compare in the last run (sample positions
/// differ: ours a 2×2 grid, MSAA a rotated pattern, so edges differ by design).
nonisolated(unsafe) var antialiasedAgreement: ImageComparison? = nil

func renderRow(
  _ name: String, _ draw: DrawCall, _ camera: RenderCamera, _ settings: RenderSettings, lambert: Bool = false
) -> Row {
  renderRow(name, [draw], camera, settings, lambert: lambert)
}

func renderRow(
  _ name: String, _ draws: [DrawCall], _ camera: RenderCamera, _ settings: RenderSettings,
  lambert: Bool = false
) -> Row {
  let light = SIMD3<Float>(0.3, 0.8, 0.5).normalized()
  let shading: ShadingMode = lambert ? .lambert(towardsLight: light) : .unlit
  let triangles = FlatTriangles(draws, towardsLight: lambert ? light : nil)
  let mesa = Mesa(width: camera.intrinsics.width, height: camera.intrinsics.height)
  let clip = camera.clipFromWorld
  var image = RGBA8Image(width: 0, height: 0, pixels: [])
  // Both sides keep their framebuffers between frames: llvmpipe its context, ours a FrameRenderer
  // and the image it renders into.
  let renderer = FrameRenderer()
  let row = compare(name, peer: "Mesa llvmpipe (2 threads)", rounds: 5, budget: 1.5) {
    try! renderer.render(draws, camera: camera, shading: shading, settings: settings, into: &image)
  } peerRun: {
    mesa.draw(triangles, clipFromWorld: clip)
  }
  blackHole(image)
  return row
}

/// How the textured fill maps its 256² texture: both sides filter the same way.
enum TextureFilter: String {
  /// Magnified (0.53 texels a pixel), so the base level is the only one read, bilinearly.
  case bilinear
  /// Minified (1.6 texels a pixel: level 0.68), so two levels are read and blended.
  case trilinear

  /// How many times the texture repeats across a layer (6 m wide, a third of it on screen:
  /// the camera sees 2 m at the layers' depth).
  var repeats: Float { self == .bilinear ? 8 : 24 }
}

/// The same 32 layers with a 256² texture repeated across the screen as `filter` says
/// (uv 0…n across each layer, the screen's aspect ratio kept).
func texturedLayers(
  _ positions: [SIMD3<Float>], indices: [UInt32], filter: TextureFilter, camera: RenderCamera
) -> Mesh {
  let (w, h) = (camera.intrinsics.width, camera.intrinsics.height)
  let n = filter.repeats, m = n * Float(h) / Float(w)
  let texcoords: [SIMD2<Float>] = positions.indices.map { i in
    [[0, 0], [n, 0], [n, m], [0, m]][i % 4]
  }
  return Mesh(
    positions: positions, normals: Array(repeating: [0, 0, 1], count: positions.count), texcoords: texcoords,
    indices: indices)
}

/// The fill rate: every layer shaded, as llvmpipe shades them. (Removing hidden surfaces
/// first, ours would shade only the front layer.)
func shadingEveryLayer(_ settings: RenderSettings) -> RenderSettings {
  var everyLayer = settings
  everyLayer.removesHiddenSurfaces = false
  return everyLayer
}

/// A mesh with texture coordinates under a 256² texture (trilinear, with mipmaps), drawn by
/// ours lit by ambient light only, which returns the texture colour.
struct TexturedDraw {
  /// The texture's width and height.
  static let side = 256
  /// Ambient white light: ours returns the texture colour, as llvmpipe modulating white.
  static let lighting = Lighting(ambient: [1, 1, 1], directional: [], point: [])
  /// The texture's texels (red x, green y, blue x xor y), for llvmpipe.
  let image: RGBA8Image
  /// The mesh with its textured material.
  let mesh: Mesh
  let draw: DrawCall

  init(_ textured: Mesh, worldFromModel: Matrix4<Float> = .identity) {
    let side = Self.side
    image = RGBA8Image(
      width: side, height: side,
      pixels: (0..<(side * side)).map { i in
        let (x, y) = (i % side, i / side)
        return SIMD4(UInt8(x), UInt8(y), UInt8((x ^ y) & 255), 255)
      })
    let path = ".build/bench-data/texture-256.png"
    try! FileManager.default.createDirectory(atPath: ".build/bench-data", withIntermediateDirectories: true)
    try! ImageFile.writePNG(image, to: path)
    var material = Material(name: "textured")
    material.diffuse = [1, 1, 1]
    material.diffuseTexture = TextureReference(path: path)
    var mesh = textured
    mesh.materials = [material]
    self.mesh = mesh
    draw = try! DrawCall(
      mesh: mesh, worldFromModel: worldFromModel, cullBackFaces: false, textures: [path: image])
  }
}

/// `mesh` (with texture coordinates) under a 256² texture, trilinear with mipmaps on both
/// sides; ours lit by ambient light only, which returns the texture colour, llvmpipe modulating
/// white.
func texturedRow(
  _ name: String, _ textured: Mesh, _ camera: RenderCamera, _ settings: RenderSettings,
  worldFromModel: Matrix4<Float> = .identity
) -> Row {
  let textured = TexturedDraw(textured, worldFromModel: worldFromModel)
  let (draw, mesh, image, side) = (textured.draw, textured.mesh, textured.image, TexturedDraw.side)
  let texcoords = mesh.texcoords
  let flat = FlatTriangles([draw], towardsLight: nil)
  var uv: [Float] = []
  for t in 0..<mesh.triangleCount {
    let (a, b, c) = mesh.triangle(t)
    for v in [a, b, c] { uv += [texcoords[v].x, 1 - texcoords[v].y] }  // GL rows start at the bottom
  }
  let mesa = Mesa(width: camera.intrinsics.width, height: camera.intrinsics.height)
  let renderer = FrameRenderer()
  var out = RGBA8Image(width: 0, height: 0, pixels: [])
  let row = compare(name, peer: "Mesa llvmpipe (2 threads)", rounds: 5, budget: 1.5) {
    try! renderer.render(
      [draw], camera: camera, shading: .lit(TexturedDraw.lighting), settings: settings, into: &out)
  } peerRun: {
    image.pixels.withUnsafeBytes { texels in
      mesa_oracle_draw_textured(
        mesa.context, flat.positions, flat.colors, uv, flat.count, camera.clipFromWorld.columnMajorElements,
        texels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(side), Int32(side))
    }
  }
  blackHole(out)
  return row
}

func sphereMesh(segments n: Int) -> Mesh {
  var positions: [SIMD3<Float>] = [], indices: [UInt32] = []
  for j in 0...n {
    for i in 0...n {
      let theta = Float(j) / Float(n) * .pi, phi = Float(i) / Float(n) * 2 * .pi
      positions.append([sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)])
    }
  }
  for j in 0..<n {
    for i in 0..<n {
      let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
      indices += [a, c, b, b, c, d]
    }
  }
  return Mesh(positions: positions, normals: positions, indices: indices)
}

/// `count` triangles of about 2 px (`imageWidth` pixels across the image), scattered over the
/// image at 1 m in front of the camera, unculled.
private func smallTriangles(_ count: Int, imageWidth: Int, random rng: inout SplitMix64) -> DrawCall {
  var positions: [SIMD3<Float>] = [], indices: [UInt32] = []
  let pixel = 1 / Float(imageWidth)  // metres per pixel at z = 0 (2 m from the camera; fx = w)
  for k in 0..<count {
    let c = SIMD3<Float>(rng.scalar(-0.9...0.9), rng.scalar(-0.5...0.5), rng.scalar(-0.5...0.5))
    positions += [c, c + SIMD3(2 * 2 * pixel, 0, 0), c + SIMD3(0, 2 * 2 * pixel, 0)]
    indices += [UInt32(3 * k), UInt32(3 * k + 1), UInt32(3 * k + 2)]
  }
  return try! DrawCall(
    mesh: Mesh(
      positions: positions, normals: Array(repeating: [0, 0, 1], count: positions.count), indices: indices),
    cullBackFaces: false)
}

/// 32 overlapping screen-sized quads, ordered back to front: every one passes the depth test.
private func fullScreenLayers() -> (positions: [SIMD3<Float>], indices: [UInt32]) {
  var positions: [SIMD3<Float>] = [], indices: [UInt32] = []
  for layer in 0..<32 {
    let z = -Float(layer) * 0.01
    let b = UInt32(positions.count)
    positions += [[-3, -2, z], [3, -2, z], [3, 2, z], [-3, 2, z]]
    indices += [b, b + 1, b + 2, b, b + 2, b + 3]
  }
  indices = stride(from: indices.count - 6, through: 0, by: -6).flatMap {
    Array(indices[$0..<($0 + 6)])
  }
  return (positions, indices)
}
