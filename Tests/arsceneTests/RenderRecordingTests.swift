import ARGeo
import ARImage
import ARImageIO
import ARMath
import ARRecording
import ARScene
import ARTestSupport
import Foundation
import Testing

/// `arscene render --recording`: every frame of a recording drawn over its own image, resumable,
/// and as an H.264 video.
@Suite("arscene render --recording")
struct RenderRecordingTests {
  /// A perfect phone's 12 s walk at Závist with small frames, each with an image of one colour
  /// (and with `depth`, a depth image: the left half a wall 5 cm away, nearer than the camera's
  /// near plane and so in front of everything, the right half unmeasured).
  static func recording(in folder: TemporaryFolder, depth: Bool = false) throws -> (
    path: String, colours: [Int: SIMD4<UInt8>]
  ) {
    let geo = try GeoSite.load(scene: "Scenes/zavist.json")
    let site = GeoSite(frame: geo.frame, anchors: geo.anchors)
    var model = PhoneErrorModel.perfect
    (model.poseRate, model.frameRate, model.headingRate) = (10, 2, 5)
    model.intrinsics = Pinhole(fx: 120, fy: 120, cx: 80, cy: 60)
    model.imageSize = SIMD2(160, 120)
    let simulator = SessionSimulator(
      site: site, path: try WalkPath.tour(site), model: model, seed: 9, duration: 12)
    let path = folder.path + "/walk.jsonl"
    let writer = try RecordingWriter(path: path, header: simulator.header)
    var colours: [Int: SIMD4<UInt8>] = [:]
    try FileManager.default.createDirectory(atPath: folder.path + "/img", withIntermediateDirectories: true)
    var failure: Error?
    try simulator.run { record throws(RecordingError) in
      guard case .frame(var frame) = record else { return try writer.write(record) }
      let colour = SIMD4<UInt8>(
        UInt8(40 + frame.index * 7 % 200), 90, UInt8(200 - frame.index * 5 % 150), 255)
      colours[frame.index] = colour
      frame.image = .file("img/\(frame.index).png")
      if depth { frame.depthPath = "img/depth.png" }
      do {
        try ImageFile.writePNG(
          RGBA8Image(width: 160, height: 120, pixels: Array(repeating: colour, count: 160 * 120)),
          to: folder.path + "/img/\(frame.index).png")
      } catch { failure = error }
      try writer.write(.frame(frame))
    }
    if let failure { throw failure }
    try writer.finish()
    if depth {
      let pixels = (0..<(40 * 30)).map { i -> SIMD4<UInt16> in i % 40 < 20 ? SIMD4(50, 50, 50, 65535) : .zero
      }
      let png = try PNG.encode(RGBA16Image(width: 40, height: 30, pixels: pixels), channels: .grey)
      try Data(png).write(to: URL(fileURLWithPath: folder.path + "/img/depth.png"))
    }
    return (path, colours)
  }

  @Test("frames over their own images, in frame order, resumable; the video decodes with every frame")
  func framesAndVideo() throws {
    let folder = try TemporaryFolder()
    let (recording, colours) = try Self.recording(in: folder)
    let (frames, video) = (folder.path + "/out", folder.path + "/walk.mp4")
    let arguments = [
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", frames, "--every", "2",
    ]
    let first = try ArsceneRunner.run(arguments + ["--video", video])
    #expect(first.status == 0, "\(first.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
    // 25 frames at 2 Hz over 12 s, every second one: 0, 2, …, 24.
    #expect(names == stride(from: 0, through: 24, by: 2).map { String(format: "frame_%06d.png", $0) })
    var drawnFrames = 0
    for name in names {
      let index = Int(name.dropFirst(6).prefix(6))!
      let image = try ImageFile.readRGBA8(frames + "/" + name)
      #expect(image.width == 160 && image.height == 120)
      // Where nothing is drawn the frame's own pixels show, exactly; once the alignment exists
      // the buildings are drawn over them.
      let own = image.pixels.filter { $0 == colours[index] }.count
      #expect(own > 0, "\(name) shows none of its camera image")
      if own < image.pixels.count { drawnFrames += 1 }
    }
    #expect(drawnFrames >= 5, "content drawn in \(drawnFrames) frames")
    // Resumed: nothing to do.
    let again = try ArsceneRunner.run(arguments)
    #expect(
      again.status == 0 && again.stderr.contains("0 frames rendered, 13 already there"), "\(again.stderr)")
    // The video: H.264, the frames' size, one video frame a rendered frame.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    probe.arguments = [
      "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", video,
    ]
    let out = Pipe()
    probe.standardOutput = out
    try probe.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExitPromptly()
    #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,160,120,13")
  }

  @Test("a capture whose video is missing: the error names the video, exit 2, no frame written")
  func missingVideo() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.copyItem(
      atPath: Fixtures.path("recordings/ios_logger"), toPath: folder.path + "/ios")
    try FileManager.default.removeItem(atPath: folder.path + "/ios/Frames.m4v")
    let frames = folder.path + "/out"
    let outcome = try ArsceneRunner.run([
      "render", "--recording", folder.path + "/ios", "--scene", "Scenes/zavist.json", "--frames", frames,
    ])
    #expect(outcome.status == 2)
    #expect(
      outcome.stderr.contains("frame 0 (t = 1732500000.0 s): its video Frames.m4v is missing"),
      "\(outcome.stderr)")
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).isEmpty)
  }

  @Test(
    "real surfaces nearer than the content hide it: the left half's wall at 5 cm, the right half unmeasured")
  func occlusion() throws {
    let folder = try TemporaryFolder()
    let (recording, colours) = try Self.recording(in: folder, depth: true)
    let frames = folder.path + "/out"
    let outcome = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", frames, "--every", "2",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    var rightDrawn = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: frames) {
      let index = Int(name.dropFirst(6).prefix(6))!
      let image = try ImageFile.readRGBA8(frames + "/" + name)
      for y in 0..<120 {
        for x in 0..<160 {
          let own = image[x, y] == colours[index]
          if x < 80 {
            #expect(own, "\(name) pixel \(x), \(y): content drawn in front of the wall")
            if !own { return }
          } else if !own {
            rightDrawn += 1
          }
        }
      }
    }
    #expect(rightDrawn > 100, "content drawn on the unmeasured half: \(rightDrawn) pixels")
  }

  @Test(
    "--view and --orientation portrait: frames of the screen's size, the image turned (the wall on top) and cropped"
  )
  func portraitScreen() throws {
    let folder = try TemporaryFolder()
    let (recording, colours) = try Self.recording(in: folder, depth: true)
    let frames = folder.path + "/out"
    let outcome = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", frames, "--every", "4",
      "--view", "90,160", "--orientation", "portrait",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    var bottomDrawn = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: frames) {
      let index = Int(name.dropFirst(6).prefix(6))!
      let image = try ImageFile.readRGBA8(frames + "/" + name)
      #expect(image.width == 90 && image.height == 160)
      // The sensor image's left half (the wall) runs down from the screen's top in portrait.
      for y in 0..<160 {
        for x in 0..<90 where image[x, y] != colours[index] {
          #expect(y >= 80, "\(name) pixel \(x), \(y): content drawn in front of the wall")
          bottomDrawn += 1
        }
      }
    }
    #expect(bottomDrawn > 50, "content drawn on the unmeasured half: \(bottomDrawn) pixels")
    let bad = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", frames,
      "--orientation", "sideways",
    ])
    #expect(bad.status == 64 && bad.stderr.contains("--orientation"), "\(bad.stderr)")
  }

  @Test(
    "--motion-blur and --grain: the walk's frames soften the content's edges; out-of-range values are errors")
  func cameraEffects() throws {
    let folder = try TemporaryFolder()
    let (recording, _) = try Self.recording(in: folder)
    let (sharp, soft) = (folder.path + "/sharp", folder.path + "/soft")
    let base = [
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--range", "10:24", "--every", "2",
    ]
    let first = try ArsceneRunner.run(base + ["--frames", sharp])
    let second = try ArsceneRunner.run(base + ["--frames", soft, "--motion-blur", "1", "--grain", "1"])
    #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
    // The walk turns and moves between frames: some frame's content is smeared (pixels differ),
    // none is lost.
    var differing = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: sharp) {
      let a = try ImageFile.readRGBA8(sharp + "/" + name), b = try ImageFile.readRGBA8(soft + "/" + name)
      #expect(a.width == b.width && a.height == b.height)
      differing += zip(a.pixels, b.pixels).filter { $0 != $1 }.count
    }
    #expect(differing > 0)
    for (option, value) in [("--motion-blur", "2"), ("--grain", "9")] {
      let bad = try ArsceneRunner.run(base + ["--frames", folder.path + "/bad", option, value])
      #expect(bad.status == 64 && bad.stderr.contains(option), "\(bad.stderr)")
    }
  }

  @Test(
    "simulate --frames pictures what the camera saw; a perfect phone's content then lands on it in every frame"
  )
  func simulatedCameraFrames() throws {
    let folder = try TemporaryFolder()
    let recording = folder.path + "/walk.jsonl"
    let simulated = try ArsceneRunner.run([
      "simulate", "--scene", "Scenes/zavist.json", "--seed", "4", "--duration", "12", "--frame-rate", "2",
      "--image-size", "160,120", "--perfect", "--frames", folder.path + "/camera", "-o", recording,
    ])
    #expect(simulated.status == 0, "\(simulated.stderr)")
    let pictured = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/camera")
    #expect(
      pictured.filter { $0.hasPrefix("frame_") }.count == 25
        && pictured.filter { $0.hasPrefix("depth_") }.count == 25)
    let depth = try PNG.decodeRGBA16(
      [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/camera/depth_000010.png"))))
    #expect(depth.width == 160 && depth.height == 120 && depth.pixels.contains { $0.x > 0 })
    // The app's content: the site's buildings without the ground (the camera sees the real one).
    var scene =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "Scenes/zavist.json")))
      as! [String: Any]
    var objects = scene["objects"] as! [[String: Any]]
    objects.removeAll { $0["name"] as? String == "ground" }
    for i in objects.indices {
      objects[i]["model"] =
        FileManager.default.currentDirectoryPath + "/Scenes/" + (objects[i]["model"] as! String)
    }
    scene["objects"] = objects
    let scenePath = folder.path + "/buildings.json"
    try JSONSerialization.data(withJSONObject: scene).write(to: URL(fileURLWithPath: scenePath))
    let out = folder.path + "/out"
    let arguments = ["render", "--recording", recording, "--scene", scenePath, "--frames", out]
    let rendered = try ArsceneRunner.run(arguments + ["--video", folder.path + "/walk.mp4"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    // Every frame drawn at the camera's size; the buildings drawn by the app's alignment over
    // the buildings the camera saw, frame after frame as the camera walks and turns: each
    // composite is the camera's image again, to within the few edge pixels the two poses'
    // rounding moves.
    var drawn = 0
    for index in 0..<25 {
      let name = String(format: "%06d.png", index)
      let camera = try ImageFile.readRGBA8(folder.path + "/camera/frame_" + name)
      let composite = try ImageFile.readRGBA8(out + "/frame_" + name)
      #expect(composite.width == 160 && composite.height == 120)
      let differing = zip(camera.pixels, composite.pixels).filter { a, b in
        abs(Int(a.x) - Int(b.x)) + abs(Int(a.y) - Int(b.y)) + abs(Int(a.z) - Int(b.z)) > 24
      }.count
      #expect(differing < 160 * 120 / 50, "frame \(index): \(differing) pixels off the camera's picture")
      if composite != camera { drawn += 1 }
    }
    #expect(drawn >= 10, "content drawn in \(drawn) frames")
    // Resumed: nothing left to do.
    let again = try ArsceneRunner.run(arguments)
    #expect(
      again.status == 0 && again.stderr.contains("0 frames rendered, 25 already there"), "\(again.stderr)")
    // --layers: each frame's content alone and its depth beside it; transparent and 0 where
    // nothing is drawn, opaque with a depth where the buildings are.
    let layered = folder.path + "/layers"
    let withLayers = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", scenePath, "--frames", layered, "--range", "20:24",
      "--layers",
    ])
    #expect(withLayers.status == 0, "\(withLayers.stderr)")
    let overlay = try ImageFile.readRGBA8(layered + "/overlay_000022.png")
    let layerDepth = try PNG.decodeRGBA16(
      [UInt8](Data(contentsOf: URL(fileURLWithPath: layered + "/depth_000022.png"))))
    #expect(overlay.width == 160 && layerDepth.width == 160)
    #expect(overlay.pixels.contains { $0.w == 0 } && overlay.pixels.contains { $0.w == 255 })
    #expect(zip(overlay.pixels, layerDepth.pixels).allSatisfy { ($0.0.w == 0) == ($0.1.x == 0) })
    let noFolder = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", scenePath, "--video", folder.path + "/v.mp4", "--layers",
    ])
    #expect(noFolder.status == 64 && noFolder.stderr.contains("--layers"), "\(noFolder.stderr)")
  }

  @Test("a frame image of another size than its intrinsics is an error naming the frame; --lenient skips it")
  func wrongSize() throws {
    let folder = try TemporaryFolder()
    let (recording, _) = try Self.recording(in: folder)
    try ImageFile.writePNG(
      RGBA8Image(width: 80, height: 60, pixels: Array(repeating: SIMD4(1, 2, 3, 255), count: 80 * 60)),
      to: folder.path + "/img/4.png")
    let outcome = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", folder.path + "/out",
    ])
    #expect(
      outcome.status == 2 && outcome.stderr.contains("frame 4") && outcome.stderr.contains("80×60"),
      "\(outcome.stderr)")
    // Leniently, that frame is skipped, said so and counted; the others are drawn.
    let lenient = try ArsceneRunner.run([
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--frames", folder.path + "/out2",
      "--lenient",
    ])
    #expect(
      lenient.status == 0 && lenient.stderr.contains("warning: ") && lenient.stderr.contains("1 skipped"),
      "\(lenient.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out2")
    #expect(written.count == 24 && !written.contains("frame_000004.png"))
  }
}

/// The first frame of a capture with depth, rendered three ways: the camera alone, a cube drawn
/// over it regardless of depth, and the cube hidden where the capture's depth is nearer.
struct DepthOcclusionFrames {
  let camera: RGBA8Image
  let shown: RGBA8Image
  let occluded: RGBA8Image

  init(capture: String, cubeAt translation: String) throws {
    let folder = try TemporaryFolder()
    let cube = Fixtures.path("obj/cube_quads.obj")
    let view =
      #""output":{"width":64,"height":48},"camera":{"vertical_fov_deg":60,"look_at":{"eye":[0,1,5],"target":[0,0,0]}}"#
    let scene = try folder.write(
      #"{\#(view),"objects":[{"model":"\#(cube)","transform":{"translation":\#(translation)}}]}"#,
      to: "scene.json")
    let empty = try folder.write(#"{\#(view),"objects":[]}"#, to: "empty.json")
    func firstFrame(_ scene: String, _ extra: [String], _ name: String) throws -> RGBA8Image {
      let out = folder.path + "/" + name
      let run = try ArsceneRunner.run(
        ["render", "--recording", capture, "--scene", scene, "--frames", out, "--allow-path", Fixtures.root]
          + extra)
      #expect(run.status == 0, "\(run.stderr)")
      return try ImageFile.readRGBA8(out + "/frame_000000.png")
    }
    camera = try firstFrame(empty, [], "camera")
    shown = try firstFrame(scene, ["--no-occlusion"], "shown")
    occluded = try firstFrame(scene, [], "occluded")
  }

  /// The pixels of `image` that differ from the camera's frame.
  func changed(_ image: RGBA8Image) -> Int { zip(image.pixels, camera.pixels).filter { $0 != $1 }.count }
}

/// A Record3D `.r3d` capture drawn over its own frames, read in place from the archive: its JPEG
/// frames, its LZFSE depth (a wall 1.5 m away) and confidence (a third low).
@Suite("arscene render --recording of a Record3D capture")
struct Record3DRenderTests {
  @Test("a cube 2–3 m away is hidden by the 1.5 m wall where the depth is medium or high confidence")
  func depthFromTheArchive() throws {
    let frames = try DepthOcclusionFrames(
      capture: Fixtures.path("recordings/record3d/scan.r3d"), cubeAt: "[0,0.5,-5]")
    let (shown, occluded) = (frames.changed(frames.shown), frames.changed(frames.occluded))
    // Confidence (x + y) mod 3 is low on a third of the depth's pixels, which do not occlude.
    #expect(shown > 300)
    #expect(abs(Double(occluded) / Double(shown) - 1.0 / 3) < 0.05, "\(occluded) of \(shown)")
  }
}

/// Record3D's EXR export drawn over: the same capture as the `.r3d`, its depth (half floats, a
/// wall 1.5 m away) decoded from EXR through OpenEXR.
@Suite("arscene render --recording of a Record3D EXR export")
struct Record3DFolderRenderTests {
  @Test("a cube 2–3 m away is hidden by the 1.5 m wall: the export has no confidence, so all of it")
  func depthFromEXR() throws {
    let frames = try DepthOcclusionFrames(
      capture: Fixtures.path("recordings/record3d_exr"), cubeAt: "[0,0.5,-5]")
    let (shown, occluded) = (frames.changed(frames.shown), frames.changed(frames.occluded))
    #expect(shown > 300)
    // One pixel of the 16 × 12 depth is unmeasured (NaN): at most its share stays drawn.
    #expect(Double(occluded) / Double(shown) < 0.02, "\(occluded) of \(shown)")
  }
}

/// A real 3D Recorder frame (Huawei AR Engine) drawn over, its intrinsics from the display's
/// projection and its time-of-flight depth (a desk about 1 m away) read from `DEPTH16`.
@Suite("arscene render --recording of a 3D Recorder folder")
struct ThreeDRecorderRenderTests {
  @Test("a cube 2.5 m ahead is hidden where the ToF depth measured the desk with medium or high confidence")
  func depthFromDepth16() throws {
    // The first pose looks along world +y: the cube sits 2.5 m ahead of it.
    let frames = try DepthOcclusionFrames(
      capture: Fixtures.path("recordings/3d_recorder"), cubeAt: "[0,2.5,0]")
    #expect(frames.camera.width == 360 && frames.camera.height == 270)
    let (shown, occluded) = (frames.changed(frames.shown), frames.changed(frames.occluded))
    // 42% of the depth's samples are low confidence (DEPTH16 codes 1–3) and 14% unmeasured:
    // those do not occlude, the rest do.
    #expect(shown > 2000)
    let share = Double(occluded) / Double(shown)
    #expect(share > 0.2 && share < 0.8, "\(occluded) of \(shown)")
  }
}
