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
import LibPNGOracle
import LitOracle
import MesaOracle

/// An AR frame end to end, as `arscene render --recording` makes each one: a 1920×1440 camera
/// frame, an anchored 100k-triangle model lit, its shadow on the ground, hidden where the
/// frame's depth (256×192 millimetres, ARKit's size) is nearer, then a PNG on disk.
///
/// The peer is llvmpipe (EGL, GLES 3 shaders lighting as ours do: `MesaLit`) drawing the same
/// model over the same frame, read back and written by libpng with its defaults. It draws no
/// shadow and no occlusion (the oracle has neither), so it does less than ours.
func compositeWorkloads(quick: Bool) -> [Row] {
  let (width, height) = quick ? (480, 360) : (1920, 1440)
  let folder = NSTemporaryDirectory() + "arscene-bench-composite-\(getpid())"
  try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }

  // The scene: a sphere of ~100k triangles standing on the floor, 1.5 m from the camera.
  let sphere = sphereMesh(segments: quick ? 60 : 224)
  // Without its material line: the fallback material needs no library.
  let obj = sphere.objText().split(separator: "\n").filter { !$0.hasPrefix("usemtl") }.joined(separator: "\n")
  try! obj.write(toFile: folder + "/model.obj", atomically: true, encoding: .utf8)
  let frame = renderLikeImage(side: width, height: height)
  try! ImageFile.writePNG(frame, to: folder + "/frame.png")
  let scale = Double(width) / 1920
  let sceneText = """
    { "output": { "width": \(width), "height": \(height) },
      "background": { "image": "frame.png" },
      "camera": { "intrinsics": { "fx": \(1450 * scale), "fy": \(1462 * scale), "cx": \(947.5 * scale), "cy": \(731.25 * scale) },
                  "look_at": { "eye": [0.5, 1.3, 1.4], "target": [0, 0.25, 0] }, "near": 0.001, "far": 1000 },
      "objects": [ { "model": "model.obj", "transform": { "translation": [0, 0.3, 0], "scale": [0.3, 0.3, 0.3] } } ],
      "shadow": { "softness": 0.02 } }
    """
  try! sceneText.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
  let scene = try! Scene.load(path: folder + "/scene.json")
  let draws = try! scene.drawCalls()
  let (measured, confidence) = floorDepth(scene.camera, width: 256, height: 192)
  let occlusion = DepthOcclusion()
  let renderer = FrameRenderer()
  let settings = RenderSettings(supersampling: 1, threads: 2)
  let ours = folder + "/ours.png", theirs = folder + "/peer.png"
  guard let mesa = MesaLit(width: width, height: height) else {
    return [
      Row(
        workload: "AR frame composite (EGL unavailable)", ours_s: .nan, peer: "llvmpipe", peer_s: .nan,
        ratio: .nan)
    ]
  }
  var pngBytes = [UInt8](repeating: 0, count: width * height * 5 + 1024)
  let name =
    "AR frame \(width)x\(height): camera frame + \(sphere.triangleCount / 1000)k-triangle model, lit + shadow + depth occlusion -> PNG file"
  var rows = [
    compare(name, peer: "llvmpipe EGL (no shadow, no occlusion) + libpng", rounds: quick ? 2 : 7) {
      let (overlay, depth) = try! renderer.renderWithDepth(
        draws, camera: scene.renderCamera, shading: .lit(scene.lighting), backgroundColor: .zero,
        settings: settings, shadows: scene.shadows)
      let composite = occlusion.composite(
        overlay: overlay, depth: depth, over: frame, measured: measured, confidence: confidence)
      try! ImageFile.writePNG(composite, to: ours, compression: 1)
    } peerRun: {
      let image = try! mesa.render(scene)
      writeWithLibpng(image, to: theirs, buffer: &pngBytes)
    }
  ]
  // The stages of ours alone, to see where the frame's time goes.
  var overlay = RGBA8Image(width: 0, height: 0, pixels: []),
    depth = DepthImage(width: 0, height: 0, pixels: [])
  rows.append(
    compare(
      "AR frame stage: render with depth and shadow", peer: "llvmpipe EGL, render and read back",
      rounds: quick ? 2 : 7
    ) {
      (overlay, depth) = try! renderer.renderWithDepth(
        draws, camera: scene.renderCamera, shading: .lit(scene.lighting), backgroundColor: .zero,
        settings: settings, shadows: scene.shadows)
    } peerRun: {
      blackHole(try! mesa.render(scene))
    })
  var composite = frame
  rows.append(
    oursOnly("AR frame stage: shadow map and shadow layer", rounds: quick ? 2 : 7) {
      blackHole(try! scene.shadows!.shadowLayer(casting: draws, camera: scene.renderCamera, threads: 2))
    })
  rows.append(
    oursOnly("AR frame stage: depth occlusion and composite", rounds: quick ? 2 : 7) {
      composite = occlusion.composite(
        overlay: overlay, depth: depth, over: frame, measured: measured, confidence: confidence)
    })
  rows.append(
    compare(
      "AR frame stage: PNG level 1 (RGB, as --recording writes frames) to disk",
      peer: "libpng defaults to disk", rounds: quick ? 2 : 7
    ) {
      try! ImageFile.writePNG(composite, to: ours, compression: 1)
    } peerRun: {
      writeWithLibpng(composite, to: theirs, buffer: &pngBytes)
    })
  rows.append(recordingFramesRow(quick: quick))
  return rows
}

/// `image` encoded by libpng's simplified API (its defaults) and written to `path`.
private func writeWithLibpng(_ image: RGBA8Image, to path: String, buffer: inout [UInt8]) {
  let capacity = buffer.count
  let size = image.pixels.withUnsafeBytes { raw in
    buffer.withUnsafeMutableBytes { out in
      libpng_oracle_encode_rgba8(
        raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
        out.baseAddress!.assumingMemoryBound(to: UInt8.self), capacity)
    }
  }
  _ = FileManager.default.createFile(atPath: path, contents: Data(buffer[0..<size]))
}

/// What a phone's depth sensor reports for a bare floor at y = 0 (millimetres along the view
/// axis, 0 where the floor is not seen), with a nearer real box in the lower left quarter, and
/// high confidence everywhere.
private func floorDepth(_ camera: PinholeCamera<Double>, width: Int, height: Int) -> (RGBA16Image, RGBA8Image)
{
  let sx = Double(camera.intrinsics.width) / Double(width),
    sy = Double(camera.intrinsics.height) / Double(height)
  let forward = camera.worldFromCamera.transformDirection(SIMD3(0, 0, -1))
  var pixels: [SIMD4<UInt16>] = []
  for y in 0..<height {
    for x in 0..<width {
      let ray = camera.ray(through: SIMD2((Double(x) + 0.5) * sx, (Double(y) + 0.5) * sy))
      var mm = 0.0
      if ray.direction.y < 0 {
        let t = -ray.origin.y / ray.direction.y
        mm = t * (ray.direction * forward).sum() * 1000
      }
      if x < width / 4, y > height * 3 / 4 { mm = 600 }
      let v = UInt16(min(max(mm.rounded(), 0), 65535))
      pixels.append(SIMD4(v, v, v, 65535))
    }
  }
  return (
    RGBA16Image(width: width, height: height, pixels: pixels),
    RGBA8Image(width: width, height: height, fill: SIMD4(2, 2, 2, 255))
  )
}

/// `arscene render --recording --frames` on both cores against the same command pinned to one
/// (`taskset -c 0`): what the second core buys a whole recording (the issue's goal: 1.7×). The
/// recording is a perfect phone's simulated walk at Závist, pictured by `arscene simulate
/// --frames` (camera images and depth), drawn over with the site guide's scene (labels, shadows,
/// depth occlusion).
func recordingFramesRow(quick: Bool) -> Row {
  let arscene = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("arscene").path
  let folder = NSTemporaryDirectory() + "arscene-bench-frames-\(getpid())"
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let (size, duration) = quick ? ("320,240", "4") : ("1920,1440", "10")
  let recording = folder + "/walk.jsonl"
  let setUp = Process()
  setUp.executableURL = URL(fileURLWithPath: arscene)
  setUp.arguments = [
    "simulate", "--scene", "Scenes/zavist.json", "--seed", "2", "--perfect", "--duration", duration,
    "--frame-rate", "3",
    "--image-size", size, "--frames", folder + "/camera", "-o", recording,
  ]
  setUp.standardError = FileHandle.nullDevice
  let failed = Row(
    workload: "render --recording --frames (set-up failed)", ours_s: .nan, peer: "-", peer_s: .nan,
    ratio: .nan)
  guard (try? setUp.run()) != nil else { return failed }
  setUp.waitUntilExitPromptly()
  guard setUp.terminationStatus == 0 else { return failed }
  let frames =
    (try? FileManager.default.contentsOfDirectory(atPath: folder + "/camera"))?.filter {
      $0.hasPrefix("frame_")
    }.count ?? 0
  let render = [
    arscene, "render", "--recording", recording, "--scene", "Scenes/zavist-guide.json", "--frames",
    folder + "/out",
  ]
  var (both, one) = (Double.infinity, Double.infinity)
  for _ in 0..<(quick ? 1 : 3) {
    try? FileManager.default.removeItem(atPath: folder + "/out")
    guard let (t2, _) = timedChild(render) else { return failed }
    try? FileManager.default.removeItem(atPath: folder + "/out")
    guard let (t1, _) = timedChild(["/usr/bin/taskset", "-c", "0"] + render) else { return failed }
    (both, one) = (min(both, t2), min(one, t1))
  }
  return Row(
    workload:
      "render --recording --frames, \(frames) frames \(size.replacingOccurrences(of: ",", with: "x")) (guide scene, depth occlusion, shadows, labels): \(Int((both / Double(max(frames, 1)) * 1000).rounded())) ms a frame, 2 cores \(String(format: "%.2f", one / both))x",
    ours_s: both, peer: "ours on 1 core (taskset -c 0)", peer_s: one, ratio: both / one)
}
