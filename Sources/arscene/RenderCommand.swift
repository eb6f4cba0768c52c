import ARHit
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRecording
import ARRender
import ARScene
import ARSceneRendering
import ArgumentParser
import Foundation

/// `arscene render`: a scene file, or one model with a camera given on the command line, to PNG.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render a scene file, or one model (OBJ, glTF, GLB, USD) seen by a camera, to a PNG.",
    discussion: """
      Scene mode: arscene render SCENE.json -o out.png [--width W --height H --samples N --threads T].
      Model mode: arscene render --model FILE --size W,H --intrinsics FX,FY,CX,CY \
      --world-from-camera M00,M10,…,M33 [--world-from-model …] [--near N --far F] [--time T] \
      [--shading unlit|lambert|materials] [--light X,Y,Z] -o out.png. Matrices are 16 numbers, column-major; \
      the camera follows the ARKit convention (x right, y up, looks down -Z); pixel origin top-left, \
      centres at +0.5. unlit draws white on black; lambert writes round(255*max(0, n.l)) with n the \
      flat face normal (counter-clockwise front) and l the --light direction (world, towards the \
      light; default: from the camera), no sRGB, no culling, no anti-aliasing unless --samples asks; \
      materials draws the model's own materials and textures as a scene does (sRGB, back faces \
      culled) under ambient 0.2 and one white light from the --light direction or the camera. \
      The PNG is written to a temporary file and renamed: a failure leaves no partial file.
      Recording mode: arscene render --recording REC --scene SCENE.json [--frames DIR/] \
      [--video out.mp4] [--every N] [--range A:B] [--shard I/N] [--resume]: every frame of the \
      recording, with its pose and intrinsics, over its camera image, geo-anchors placed by the \
      alignment the replay has reached (as arscene validate's app side); frames as \
      DIR/frame_NNNNNN.png by frame index (existing ones are kept: a run resumes), the video \
      through ffmpeg (H.264).
      Manifest mode: arscene render --manifest M.jsonl [--scene SCENE.json] [--shard I/N|auto] \
      [--resume]: the recordings of M's lines whose 0-based index is I modulo N, each drawn as \
      recording mode draws it to its line's frames and video; prints {"shard":"I/N","recordings":[…]}.
      --view W,H and --orientation (scene and recording modes) render the phone screen instead of \
      the camera image: the image turned to the interface orientation and aspect-filled, as \
      ARKit's views show it and as arscene hit maps taps.
      """
  )

  @Argument(help: "Scene file (JSON). Omit it to render --model instead.")
  var scene: String?

  @Option(name: .shortAndLong, help: "Output PNG file (scene and model modes).")
  var output: String?

  @Option(help: "Override the scene's output width in pixels.") var width: Int?
  @Option(help: "Override the scene's output height in pixels.") var height: Int?
  @Option(help: "Anti-aliasing samples a pixel: 1, 4, 9, 16, … (supersampling on a square grid).")
  var samples: Int = 1
  @Option(help: "Worker threads (default: all cores). The image is the same for any count.")
  var threads: Int = ProcessInfo.processInfo.activeProcessorCount
  // zlib's default (6) took 3-4 times as long as the whole render of a 1920x1440 frame for
  // 13% smaller files; level 2 is where the time levels off for renders (docs/RENDERER-PERFORMANCE.md). A
  // camera frame's sensor noise compresses little: level 1 writes a 1920x1440 composite in
  // 35 ms against 59 ms at level 2, for a file 5% larger.
  @Option(
    help: """
      PNG compression, zlib level 0 (none, fastest) to 9 (smallest); default 2, and 1 for the frames \
      of --recording (camera images, whose noise compresses little). The pixels are the same for any level.
      """)
  var pngLevel: Int?
  /// The PNG level for scene and model renders.
  var renderPNGLevel: Int { pngLevel ?? 2 }

  @Option(
    help: """
      Also write the depth: a 16-bit greyscale PNG of millimetres along the view axis to the \
      nearest opaque surface (0 where nothing is drawn; 65535 for 65.535 m or farther).
      """)
  var depthOutput: String?
  @Option(
    help: """
      Also write the overlay alone: what the scene draws, over nothing, as RGBA (straight alpha, \
      an edge half over nothing at half opacity; scene mode).
      """)
  var overlayOutput: String?
  @Flag(
    help:
      "Write --overlay-output (and --layers' overlays) premultiplied (colour times alpha) instead of straight."
  )
  var premultiplied = false
  @Option(
    help: """
      Scene and recording modes: render a phone screen of W,H pixels showing the camera image \
      aspect-filled (turned to --orientation, scaled to cover, centred, cropped) as ARKit's views do.
      """, transform: PixelSize.init(parsing:))
  var view: PixelSize?
  @Option(
    help: """
      Scene and recording modes: the screen's interface orientation: landscape-right (the image as \
      captured; the default), landscape-left, portrait, portrait-upside-down.
      """)
  var orientation: InterfaceOrientation?

  @Option(help: "Recording mode: the recording (any layout arscene recording reads).") var recording: String?
  @Option(name: .customLong("scene"), help: "Recording mode: the scene file drawn over its frames.")
  var recordingScene: String?
  @Option(
    help: """
      Manifest mode: a JSON Lines file of recordings to draw, one a line with its scene and outputs \
      ({"recording": …, "scene": …, "frames": DIR, "video": FILE}, relative to the manifest; \
      "scene" may be left to --scene); --shard takes this task's share of its lines.
      """)
  var manifest: String?
  @Flag(
    help: """
      Recording and manifest modes: keep a video that is already there (a video is renamed into \
      place only once whole), as frames already there are kept: a batch run again does only what is missing.
      """)
  var resume = false
  @Option(help: "Recording mode: the folder the frames are written to, as frame_NNNNNN.png.") var frames:
    String?
  @Option(help: "Recording mode: an H.264 MP4 of the frames (through ffmpeg).") var video: String?
  @Option(help: "Recording mode: the video's frames per second (default: 30 / --every).") var videoFps:
    Double?
  @Option(help: "Recording mode: every N-th frame (default 1).") var every: Int?
  @Option(
    help: "Recording mode: only frames A to B (indices from 0, inclusive), as A:B.",
    transform: FrameRange.init(parsing:))
  var range: FrameRange?
  @Option(
    help: "Recording mode: this job's share of the frames, I/N, auto/N, auto/auto or auto.",
    transform: { try ShardSelection(parsing: $0) })
  var shard: ShardSelection?
  @Option(
    help: """
      Recording mode: the least confidence (low, medium, high) of a depth measurement that hides \
      virtual content behind a real surface, where frames have depth images (default medium).
      """)
  var depthConfidence: DepthConfidenceChoice?
  @Flag(
    help: "Recording mode: draw virtual content over real surfaces even where depth says they are nearer.")
  var noOcclusion = false
  @Flag(
    help: """
      Recording mode: also write each frame's content alone beside it, overlay_NNNNNN.png (straight \
      alpha, or --premultiplied) and depth_NNNNNN.png (16-bit millimetres along the view axis).
      """)
  var layers = false
  @Option(
    help: """
      Recording mode: blur the content by the camera's motion since the previous frame, as the camera \
      image is, with the shutter open for this fraction of the frame interval (0.5: a 180° shutter; 0 or not given: no blur).
      """)
  var motionBlur: Double?
  @Option(
    help: """
      Recording mode: where in the exposure the frames' timestamps fall, for --motion-blur: 0 its \
      start, 0.5 its middle (the default: what ARKit's and most captures' timestamps mean), 1 its end.
      """)
  var shutterPhase: Double?
  @Option(
    help: """
      Recording mode: give the content the camera image's noise (measured on each frame), this many \
      times as strong (1: the same).
      """)
  var grain: Double?
  @Flag(
    help: "Recording mode: skip frames (and records) that cannot be used, with a warning, instead of failing."
  )
  var lenient = false
  @Option(
    help:
      "Recording mode: the recording's layout: \(RecordingFormat.fromNames) (default: from its name or contents)."
  )
  var from: RecordingFormat?
  @Option(help: "Recording mode: frames a second for a capture without times (transforms.json; default 30).")
  var fps: Double?
  @OptionGroup(title: "Recording mode: the frames' camera, over the recording's (with --intrinsics)")
  var frameCamera: FrameCameraOptions
  @OptionGroup(title: "Recording mode: the truth's ghost") var truthTrack: TruthTrackFile

  @Option(help: "Model mode: the model (OBJ, glTF, GLB or USD, told by content).") var model: String?
  @Option(help: ModelCommand.timeHelp) var time: Double?
  @Option(help: ModelCommand.toleranceHelp) var tolerance: Double?
  @Option(help: "Model mode: image size W,H in pixels.", transform: PixelSize.init(parsing:)) var size:
    PixelSize?
  @Option(
    parsing: .unconditional,
    help:
      "Model mode: FX,FY,CX,CY in pixels. Recording mode: the frames' intrinsics, over the recording's own.",
    transform: Pinhole<Double>.init(parsing:)) var intrinsics: Pinhole<Double>?
  @Option(
    name: .customLong("world-from-camera"), parsing: .unconditional,
    help: "Model mode: camera pose, 16 numbers, column-major.", transform: MatrixValues.init(parsing:))
  var worldFromCamera: MatrixValues?
  @Option(
    name: .customLong("world-from-model"), parsing: .unconditional,
    help: "Model mode: model pose, 16 numbers (default identity).", transform: MatrixValues.init(parsing:))
  var worldFromModel: MatrixValues?
  @Option(help: "Model mode: near plane in metres (default \(RenderCamera.defaultNear)).") var near: Float?
  @Option(help: "Model mode: far plane in metres (default \(RenderCamera.defaultFar)).") var far: Float?
  @Option(help: "Model mode: unlit, lambert (the default) or materials (the model's own, textured).")
  var shading: ShadingChoice?
  @Option(
    parsing: .unconditional, help: "Model mode: direction towards the light, world frame X,Y,Z.",
    transform: DirectionValue.init(parsing:))
  var light: DirectionValue?

  @OptionGroup var references: ReferenceAccess

  func run() throws {
    try reportingInputFailures {
      let settings = try RenderSettings(samplesPerPixel: samples, threads: threads)
      let input = recording ?? manifest ?? scene ?? model ?? ""
      CommandTimeLimit.start(
        "render \(input)",
        seconds: CommandTimeLimit.budget(
          bytes: CommandTimeLimit.size(of: input) + (recordingScene.map(CommandTimeLimit.size(of:)) ?? 0)))
      if let recording { return try renderRecording(recording, settings: settings) }
      if let manifest { return try renderManifest(manifest, settings: settings) }
      guard let output else { return }
      let image: RGBA8Image
      var depth: DepthImage?
      do {
        if let scene {
          var loaded = try Scene.read(path: scene, width: width, height: height)
          if let viewport = try screen(for: loaded.camera.intrinsics) {
            loaded = try loaded.viewed(in: viewport)
          }
          // The image, its overlay and its depth, each of every sample.
          let k = loaded.camera.intrinsics
          CommandTimeLimit.extend(
            by: CommandTimeLimit.budget(
              pixelSamples: 3 * Double(k.width) * Double(k.height) * Double(samples)))
          if depthOutput != nil {
            (image, depth) = try loaded.renderWithDepth(settings: settings)
          } else {
            image = try loaded.render(settings: settings)
          }
          if let overlayOutput {
            var overlay = try loaded.overlay(settings: settings)
            if premultiplied { overlay = overlay.premultiplied }
            try ImageFile.writePNG(overlay, to: overlayOutput, compression: renderPNGLevel)
          }
        } else {
          (image, depth) = try renderModel(settings: settings)
        }
        try ImageFile.writePNG(image, to: output, compression: renderPNGLevel)
        if let depthOutput, let depth {
          try ImageFile.writeDepthPNG(depth, to: depthOutput, compression: renderPNGLevel)
        }
      } catch let failure as InputFailure {
        throw failure
      } catch { throw InputFailure(error) }
    }
  }

  /// The phone screen `--view` and `--orientation` describe, for a camera image with `intrinsics`;
  /// nil when neither is given (the image as captured).
  func screen(for intrinsics: CameraIntrinsics<Double>) throws -> TapViewport? {
    guard let (size, orientation) = screenOptions() else { return nil }
    do {
      return try TapViewport.screen(showing: intrinsics, size: size, orientation: orientation)
    } catch { throw InputFailure(message: "--view: \(error)") }
  }

  /// `--view` as whole pixels and `--orientation`; nil when neither is given (the image as
  /// captured).
  func screenOptions() -> (SIMD2<Int>?, InterfaceOrientation)? {
    guard view != nil || orientation != nil else { return nil }
    return (view?.vector, orientation ?? .landscapeRight)
  }

  /// Model mode's camera (in `Float`, whose range is smaller than the options' `Double`), its
  /// pose and the model's, checked: a bad value is a usage error (exit 64), found by
  /// `validate()` before anything is read.
  func modelPlacement(
    size: PixelSize, intrinsics: Pinhole<Double>, worldFromCamera: MatrixValues
  ) throws(ValidationError) -> (CameraIntrinsics<Float>, RigidTransform<Double>, Matrix4<Float>) {
    let cameraK: CameraIntrinsics<Float>
    do {
      let k = intrinsics
      cameraK = try CameraIntrinsics(
        validatingFx: Float(k.fx), fy: Float(k.fy), cx: Float(k.cx), cy: Float(k.cy), width: size.width,
        height: size.height)
    } catch { throw ValidationError("--intrinsics: \(error)") }
    // In `Double`: a camera in projected or Earth-centred coordinates keeps its millimetres.
    let pose: RigidTransform<Double>
    do {
      pose = try RigidTransform(validatingMatrix: Matrix4(validatingColumnMajor: worldFromCamera.columnMajor))
    } catch { throw ValidationError("--world-from-camera: \(error)") }
    var modelMatrix = Matrix4<Float>.identity
    if let worldFromModel {
      do {
        modelMatrix = try Matrix4(validatingColumnMajor: worldFromModel.columnMajor.map(Float.init))
      } catch {
        throw ValidationError("--world-from-model: \(error)")
      }
      guard modelMatrix.inverse != nil else {
        throw ValidationError("--world-from-model: the matrix is singular")
      }
    }
    return (cameraK, pose, modelMatrix)
  }

  func renderModel(settings: RenderSettings) throws -> (RGBA8Image, DepthImage?) {
    guard let model, let size, let intrinsics, let worldFromCamera else {
      throw ValidationError("--model needs --size, --intrinsics and --world-from-camera")
    }
    let (near, far) = (near ?? RenderCamera.defaultNear, far ?? RenderCamera.defaultFar)
    let (cameraK, pose, modelMatrix) = try modelPlacement(
      size: size, intrinsics: intrinsics, worldFromCamera: worldFromCamera)
    let camera = RenderCamera(intrinsics: cameraK, worldFromCamera: pose, near: near, far: far)
    let towardsLight = light.map { SIMD3<Double>($0.unit) }
    // Lenient: a quick look at a model should not fail over a missing texture (drawn without
    // it); the warnings still go to stderr.
    let asset: ModelAsset
    do {
      asset = try ModelAsset.load(path: model, lenient: true, time: time, tolerance: tolerance)
        .requiringGeometry()
    } catch {
      throw InputFailure(error)
    }
    for warning in asset.warnings { FileHandleOutput.standardError.write("arscene: \(warning)\n") }
    let view: ModelView
    if shading == .materials {
      view = ModelView(
        mesh: asset.mesh, textures: Self.decodedTextures(of: asset), camera: camera,
        worldFromModel: modelMatrix,
        lighting: ModelView.materialLighting(towardsLight: towardsLight, camera: camera))
    } else {
      let mode = ModelView.shading(lit: shading != .unlit, towardsLight: towardsLight, camera: camera)
      view = ModelView(mesh: asset.mesh, camera: camera, worldFromModel: modelMatrix, shading: mode)
    }
    let rendered = try view.render(settings: settings, depth: depthOutput != nil)
    return (rendered.image, rendered.depth)
  }

  /// The images of `asset`'s textures, decoded; one that cannot be read or decoded is named in
  /// a warning on stderr and left out (its input drawn with its constant).
  static func decodedTextures(of asset: ModelAsset) -> [String: RGBA8Image] {
    var images: [String: RGBA8Image] = [:]
    for path in asset.mesh.texturePaths {
      do {
        images[path] = try TextureImages.decode(path, embedded: asset.embeddedImages)
      } catch {
        FileHandleOutput.standardError.write(
          "arscene: \(asset.path): texture \(path) is drawn without its image: \(error)\n")
      }
    }
    return images
  }
}
