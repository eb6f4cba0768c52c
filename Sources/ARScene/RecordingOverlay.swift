import ARFilm
import ARGeo
import ARHit
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRecording
import ARRender
import ARVideo

/// Renders a scene's content over every frame of a recording, exactly where the phone would
/// have drawn it: each frame with its own pose and intrinsics, over its own camera image, with
/// geo-anchored content placed by the session alignment the recording's replay has reached at
/// that frame (ARRecording's `AnchorValidator.appAlignment`, the app's side of `arscene validate`).
///
/// A frame's image is its file, or its frame of the recording's video (decoded by ffmpeg); it
/// must have the size its intrinsics are for. A frame without an image shows the scene's
/// background colour. Geo-anchored content is not drawn until the alignment exists (an app
/// shows it only once localised); content placed otherwise (plain transforms) is in the
/// session's frame and always drawn.
public struct RecordingOverlay {
  /// What the recording's frames are drawn with: lights, objects, clip planes, background colour.
  public var scene: Scene
  /// Render every `every`-th frame of the recording (1: all).
  public var every = 1
  /// Only frames whose index (the n-th frame record, from 0) is in this range.
  public var range: ClosedRange<Int>? = nil
  /// This job's share of the selected frames.
  public var shard = ShardSelection.whole
  public var settings = RenderSettings()
  /// How far apart in time a frame and the pose used for it may be, seconds.
  public var poseTolerance = 0.05
  /// Hide virtual content behind real surfaces where a frame has a depth image (nil: never).
  public var occlusion: DepthOcclusion? = DepthOcclusion()
  /// The phone screen the frames are shown on, in pixels (nil: the camera image's own size,
  /// turned to ``orientation``): each frame's camera image is turned and aspect-filled into
  /// it as ARKit's views show it (ARHit's `TapViewport`), and the content drawn by the camera
  /// that view amounts to.
  public var viewSize: SIMD2<Int>? = nil
  /// The interface orientation of the screen (landscape-right: the image as captured).
  public var orientation = InterfaceOrientation.landscapeRight
  /// Replay the recording's taps as the app shows them: the named point each tap selects (hit
  /// -tested through that moment's camera, as ``Scene/tapHitTester(viewSize:orientation:)``
  /// does) drawn highlighted until the next tap, and a ``TapCursor`` where the finger touched.
  public var replaysTaps = true
  /// How taps select (ARHit's policies).
  public var tapPolicy = TapPolicy.standard
  /// The selected point's marker colour, linear RGB (default amber).
  public var highlightColor = SIMD3<Float>(1, 0.62, 0.05)
  /// The ring drawn where a tap touched (nil: sized for each frame, 2.5% of its shorter side).
  public var cursor: TapCursor? = nil
  /// Blur the content by the camera's motion since the previous frame, as the camera image is
  /// (nil: none). Frames without a camera image are drawn sharp.
  public var motionBlur: MotionBlur? = nil
  /// Give the content the camera image's noise (nil: none).
  public var grain: CameraGrain? = nil
  /// Skip a frame that cannot be drawn (no pose, a missing or wrong-sized image) instead of
  /// failing; ``render(_:include:progress:layers:emit:)`` returns why each was skipped.
  public var lenient = false

  public init(scene: Scene) { self.scene = scene }

  /// A frame this overlay would draw, before it is drawn.
  public struct FrameSelection: Sendable {
    /// The frame's index among the recording's frames.
    public var index: Int
    public var time: Double
  }

  /// Reads all of `reader`, calling `include` for each selected frame (return false to skip it:
  /// already rendered, say) and `emit` with each rendered one, in frame order; with `layers`,
  /// also with the frame's content alone (straight alpha, labels and cursor included, blurred
  /// as composited, before depth occlusion) and its depth (metres along the view axis, +∞ where nothing
  /// is drawn). Returns, with
  /// ``lenient``, why each frame that could not be drawn was skipped.
  ///
  /// - Throws: ``SceneError/render(path:reason:)`` naming the frame and file for a frame with
  ///   no pose within ``poseTolerance``, no intrinsics or image size, a missing or unreadable
  ///   image, or an image of another size than its intrinsics; ARRecording's `RecordingError` from
  ///   reading.
  @discardableResult
  public func render(
    _ reader: RecordingReader, include: (FrameSelection) -> Bool = { _ in true },
    progress: ((Double) -> Void)? = nil,
    layers: ((FrameSelection, RGBA8Image, DepthImage) throws -> Void)? = nil,
    emit: (FrameSelection, RGBA8Image) throws -> Void
  ) throws -> [String] {
    var skipped: [String] = []
    var app = AnchorValidator(site: GeoSite(frame: scene.geoFrame ?? defaultFrame, anchors: []))
    let hasGeoContent = scene.objects.contains { $0.geoAnchor != nil }
    let hasLabels = scene.objects.contains { $0.label != nil }
    let renderer = FrameRenderer()
    // The draw calls once, textures decoded once; each frame only moves the geo-anchored ones.
    let baseDraws = try scene.drawCalls()
    var drawRanges: [Range<Int>] = []
    for object in scene.objects {
      let start = drawRanges.last?.upperBound ?? 0
      drawRanges.append(start..<start + 1 + object.pointMarkers.count)
    }
    /// Each target's marker among the draw calls: its object's, after the model.
    let markerDraw = scene.targets.indices.map { t in
      drawRanges[scene.targets[t].object].lowerBound + 1
        + scene.targets[..<t].filter { $0.object == scene.targets[t].object }.count
    }
    var highlighted: [Int: DrawCall] = [:]
    /// The draw calls with geo-anchored objects placed as in `placed`, or left out without it,
    /// and target `selected`'s marker highlighted.
    func draws(placing placed: Scene?, selected: Int?) throws -> [DrawCall] {
      var all = baseDraws
      if let selected {
        if highlighted[selected] == nil {
          var marker = baseDraws[markerDraw[selected]]
          marker.mesh = RecordingOverlay.highlighted(marker.mesh, color: highlightColor)
          highlighted[selected] = try DrawCall(
            mesh: marker.mesh, worldFromModel: marker.worldFromModel, cullBackFaces: marker.cullBackFaces)
        }
        all[markerDraw[selected]] = highlighted[selected]!
      }
      guard hasGeoContent else { return all }
      var out: [DrawCall] = []
      for (i, object) in scene.objects.enumerated() {
        guard object.geoAnchor != nil else {
          out += all[drawRanges[i]]
          continue
        }
        guard let placed else { continue }
        for k in drawRanges[i] {
          var draw = all[k]
          draw.worldFromModel = placed.objects[i].worldFromModel
          out.append(draw)
        }
      }
      return out
    }
    /// The scene as the app shows it: geo-anchored content where `placed` (the scene placed by
    /// the alignment) has it, or, before there is an alignment, not shown at all: no mesh to
    /// hit, no point to tap, no label (objects keep their indices, which targets refer to).
    func shown(_ placed: Scene?) -> Scene {
      if let placed { return placed }
      guard hasGeoContent else { return scene }
      var shown = scene
      let hidden = Set(scene.objects.indices.filter { scene.objects[$0].geoAnchor != nil })
      shown.targets.removeAll { hidden.contains($0.object) }
      for i in hidden {
        shown.objects[i].mesh.indices = []
        shown.objects[i].label = nil
      }
      return shown
    }
    // The taps replayed so far: the target selected, and the last touch (for its cursor).
    var selectedTarget: Int?
    var lastTap: TapSample?
    var lastIntrinsics: CameraIntrinsics<Double>?
    /// Hit-tests `tap` as the app would have at that moment.
    func replay(_ tap: TapSample) throws {
      guard let pose = lastPose, let intrinsics = lastIntrinsics else {
        throw SceneError.render(
          path: reader.path, reason: "the tap at t = \(tap.time) s comes before any frame and pose")
      }
      lastTap = tap
      var seen = shown(app.appAlignment.map { scene.placingGeoAnchors(with: $0) })
      seen.camera = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose.worldFromCamera)
      do {
        let result = try seen.tapHitTester().hitTest(tap: tap.point, policy: tapPolicy)
        selectedTarget = result.best.flatMap { code in scene.targets.firstIndex { $0.code == code } }
      } catch {
        throw SceneError.render(path: reader.path, reason: "the tap at t = \(tap.time) s: \(error)")
      }
    }
    let images = RecordingFrameImages(baseFolder: reader.baseFolder)
    var lastPose: CameraPoseSample?
    var frameNumber = -1, selected = -1, records = 0
    func fail(_ frame: CameraFrameSample, _ reason: String) -> SceneError {
      .render(path: reader.path, reason: "frame \(frame.index) (t = \(frame.time) s): \(reason)")
    }
    /// A frame's depth and confidence images, checked against each other and its image's shape;
    /// nil when it has none.
    func depthImages(of frame: CameraFrameSample, _ intrinsics: CameraIntrinsics<Double>) throws -> (
      depth: RGBA16Image, confidence: RGBA8Image?
    )? {
      guard let depthPath = frame.depthPath else { return nil }
      let measured: RGBA16Image, confidence: RGBA8Image?
      do {
        measured = try ImageFile.readRGBA16(images.file(depthPath))
        confidence = try frame.confidencePath.map {
          try ImageFile.readRGBA8(images.file($0))
        }
      } catch { throw fail(frame, "\(error)") }
      if let confidence, confidence.width != measured.width || confidence.height != measured.height {
        throw fail(
          frame,
          "its confidence image is \(confidence.width)×\(confidence.height), its depth image \(measured.width)×\(measured.height)"
        )
      }
      // Depth maps are smaller than the image but cover the same field of view.
      let frameAspect = Double(intrinsics.width) / Double(intrinsics.height)
      let depthAspect = Double(measured.width) / Double(measured.height)
      guard abs(depthAspect / frameAspect - 1) < 0.01 else {
        throw fail(
          frame,
          "its depth image is \(measured.width)×\(measured.height), not the shape of its \(intrinsics.width)×\(intrinsics.height) image"
        )
      }
      return (measured, confidence)
    }
    /// The camera a frame is drawn with (the view's, with a viewport), when it has a pose and
    /// intrinsics: what the next frame's motion blur starts from.
    func frameCamera(_ frame: CameraFrameSample) -> PinholeCamera<Double>? {
      guard let pose = lastPose, abs(pose.time - frame.time) <= poseTolerance, let k = frame.cameraIntrinsics
      else { return nil }
      let camera = PinholeCamera(intrinsics: k, worldFromCamera: pose.worldFromCamera)
      guard let viewport = try? self.viewport(for: k) else { return camera }
      return viewport.viewCamera(for: camera)
    }
    var previousCamera: PinholeCamera<Double>?
    /// One frame drawn, or the error that names it.
    func draw(_ frame: CameraFrameSample) throws -> (
      image: RGBA8Image, overlay: RGBA8Image?, depth: DepthImage?
    ) {
      guard let pose = lastPose, abs(pose.time - frame.time) <= poseTolerance else {
        throw fail(frame, "no camera pose within \(poseTolerance) s")
      }
      guard let intrinsics = frame.cameraIntrinsics else {
        throw fail(frame, "no intrinsics or image size to draw it with")
      }
      // The camera image: a file decodes on another thread while the content renders; a
      // video's frame comes from its one ffmpeg pipe, here.
      var pending: (() throws -> RGBA8Image)?
      if let source = frame.image {
        do {
          pending = try images.pendingImage(source)
        } catch { throw fail(frame, "\(error)") }
      }
      // The geo-anchored content where the replay's alignment has placed it, once a frame.
      let placed = app.appAlignment.map { scene.placingGeoAnchors(with: $0) }
      let frameDraws = try draws(placing: placed, selected: replaysTaps ? selectedTarget : nil)
      var sensorCamera = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose.worldFromCamera)
      let viewport: TapViewport?
      do { viewport = try self.viewport(for: intrinsics) } catch { throw fail(frame, "the view: \(error)") }
      if let viewport { sensorCamera = viewport.viewCamera(for: sensorCamera) }
      /// The camera image once decoded, checked against the intrinsics, as the view shows it
      /// (and then in linear light too).
      func cameraPicture() throws -> (image: RGBA8Image, linear: LinearImage?)? {
        guard let pending else { return nil }
        let image: RGBA8Image
        do { image = try pending() } catch { throw fail(frame, "\(error)") }
        guard image.width == intrinsics.width, image.height == intrinsics.height else {
          throw fail(
            frame,
            "its image is \(image.width)×\(image.height) but its intrinsics are for \(intrinsics.width)×\(intrinsics.height)"
          )
        }
        guard let viewport else { return (image, nil) }
        let linear = viewport.viewImage(image.linear)
        return (linear.sRGB8, linear)
      }
      let camera = RenderCamera(
        sensorCamera, near: scene.clipPlanes.lowerBound, far: scene.clipPlanes.upperBound)
      var image: RGBA8Image
      var layer: (overlay: RGBA8Image, depth: DepthImage)?
      do {
        let hasImage = pending != nil
        let measured = occlusion != nil && hasImage ? try depthImages(of: frame, intrinsics) : nil
        let blurredFrom = motionBlur != nil ? previousCamera : nil
        if layers != nil || (hasImage && (measured != nil || blurredFrom != nil || grain != nil)) {
          // Over nothing with depth; blurred by the camera's motion, hidden behind the real
          // surfaces, composited, given the camera's grain.
          var (overlay, depth) = try renderer.renderWithDepth(
            frameDraws, camera: camera, shading: .lit(scene.lighting), backgroundColor: .zero,
            settings: settings, shadows: scene.shadows)
          // Without a camera image, layers are composited over the background colour.
          let colour = scene.backgroundColor, encoder = SRGB.Encoder.shared
          let cameraImage =
            try cameraPicture()?.image
            ?? RGBA8Image(
              width: camera.intrinsics.width, height: camera.intrinsics.height,
              fill: SIMD4(
                encoder.code(colour.x), encoder.code(colour.y), encoder.code(colour.z),
                UInt8((min(max(colour.w, 0), 1) * 255).rounded())))
          if let motionBlur, let blurredFrom {
            (overlay, depth) = motionBlur.apply(
              to: overlay, depth: depth, camera: sensorCamera, previous: blurredFrom)
          }
          image = (occlusion ?? DepthOcclusion()).composite(
            overlay: overlay, depth: depth, over: cameraImage,
            measured: measured.map { m in viewport.map { $0.viewMap(m.depth) } ?? m.depth },
            confidence: measured?.confidence.map { c in viewport.map { $0.viewMap(c) } ?? c })
          if let grain {
            grain.apply(
              noise: CameraGrain.measure(cameraImage), to: &image, overlay: overlay, frame: frame.index)
          }
          layer = (overlay, depth)
        } else {
          // The camera image in linear light only here, where the renderer draws over it.
          let picture = try cameraPicture()
          image = try renderer.render(
            frameDraws, camera: camera, shading: .lit(scene.lighting),
            background: picture.map { $0.linear ?? $0.image.linear },
            backgroundColor: scene.backgroundColor, settings: settings, shadows: scene.shadows)
        }
      } catch let error as SceneError {
        throw error
      } catch { throw fail(frame, "\(error)") }
      // The film look on the finished frame, its grain different in every frame as film's is.
      if let film = scene.film {
        image = film.apply(
          to: image, context: FilmContext(seed: UInt64(frame.index), threads: settings.threads))
      }
      if hasLabels {
        let labelled = shown(placed)
        labelled.drawLabels(on: &image, camera: sensorCamera)
        if layers != nil, var overlay = layer?.overlay {
          labelled.drawLabels(on: &overlay, camera: sensorCamera)
          layer?.overlay = overlay
        }
      }
      if replaysTaps, let tap = lastTap {
        let ring = cursor ?? TapCursor(forWidth: image.width, height: image.height)
        let at = viewport?.viewPoint(forImagePixel: tap.point) ?? tap.point
        ring.draw(at: at, age: frame.time - tap.time, into: &image)
        if layers != nil, var overlay = layer?.overlay {
          ring.draw(at: at, age: frame.time - tap.time, into: &overlay)
          layer?.overlay = overlay
        }
      }
      return (image, layer?.overlay, layer?.depth)
    }
    while let record = try reader.next() {
      records += 1
      if records & 0x3FF == 0 { progress?(reader.fractionRead) }
      app.consume(record)
      switch record {
      case .pose(let pose): lastPose = pose
      case .tap(let tap) where replaysTaps && !scene.targets.isEmpty:
        do { try replay(tap) } catch let error as SceneError where lenient {
          skipped.append(error.description)
        }
      case .frame(let frame):
        frameNumber += 1
        if let k = frame.cameraIntrinsics { lastIntrinsics = k }
        // Drawn or not, this frame's camera is where the next frame's motion starts.
        defer { previousCamera = frameCamera(frame) }
        if let range, !range.contains(frameNumber) { continue }
        guard frameNumber % every == 0 else { continue }
        selected += 1
        guard shard.contains(selected) else { continue }
        let selection = FrameSelection(index: frameNumber, time: frame.time)
        guard include(selection) else { continue }
        let drawn: (image: RGBA8Image, overlay: RGBA8Image?, depth: DepthImage?)
        do { drawn = try draw(frame) } catch let error as SceneError where lenient {
          skipped.append(error.description)
          continue
        }
        try emit(selection, drawn.image)
        if let layers, let overlay = drawn.overlay, let depth = drawn.depth {
          try layers(selection, overlay, depth)
        }
      default: break
      }
    }
    progress?(1)
    return skipped
  }

  /// The screen a frame with `intrinsics` is shown on, or nil when it is the image as captured.
  func viewport(for intrinsics: CameraIntrinsics<Double>) throws(HitError) -> TapViewport? {
    guard viewSize != nil || orientation != .landscapeRight else { return nil }
    return try TapViewport.screen(showing: intrinsics, size: viewSize, orientation: orientation)
  }

  /// A marker sphere as drawn when its point is selected: a third larger, in `color`, glowing.
  static func highlighted(_ marker: Mesh, color: SIMD3<Float>) -> Mesh {
    var mesh = marker
    let centre = mesh.positions.reduce(SIMD3<Float>.zero, +) / Float(max(1, mesh.positions.count))
    mesh.positions = mesh.positions.map { centre + ($0 - centre) * 1.35 }
    for m in mesh.materials.indices {
      mesh.materials[m].diffuse = color
      mesh.materials[m].emissive = color * 0.35
    }
    return mesh
  }

  /// For a scene without `geo`: any frame (nothing is geo-anchored, so none is used).
  private var defaultFrame: LocalTangentFrame {
    try! LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 0, longitudeDegrees: 0, height: 0))
  }
}
