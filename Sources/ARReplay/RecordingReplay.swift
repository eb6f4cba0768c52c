import ARGeo
import ARHit
import ARImage
import ARMath
import ARRecording
import ARRender
import ARScene
import ARSceneRendering

/// One pass of a ``RecordingOverlay`` over a recording: what the replay has reached (the app's
/// alignment, the last pose, the taps so far, the previous frame's camera) and the records read
/// so far, consumed one at a time in the recording's order.
final class RecordingReplay {
  typealias Selection = RecordingOverlay.FrameSelection
  /// A frame as drawn: the composite, and with layers its content alone and its depth.
  typealias DrawnFrame = (image: RGBA8Image, overlay: RGBA8Image?, depth: DepthImage?)

  let overlay: RecordingOverlay
  let reader: RecordingReader
  /// The app's side: the session alignment from the fixes and headings so far, as the app (and
  /// `arscene validate`, which composes the same type) fuses it.
  var app: AppSessionAlignment
  var drawCalls: OverlayDrawCalls
  let renderer = FrameRenderer()
  let images: RecordingFrameImages
  let hasLabels: Bool

  var lastPose: CameraPoseSample?
  var lastIntrinsics: CameraIntrinsics<Double>?
  /// The last frame's lens: taps are undistorted through it.
  var lastLens: LensDistortion = .none
  /// The warp of the last distorting lens met, kept while frames share it.
  private var cachedWarp: LensWarp?
  /// The target the last tap selected, and that tap (for its cursor).
  var selectedTarget: Int?
  /// The app's and the truth's camera poses at the first frame with both: where the ghost's
  /// content was placed.
  var ghostOrigin: (app: RigidTransform<Double>, truth: RigidTransform<Double>)?
  var lastTap: TapSample?
  /// The camera the previous frame was drawn with: where this frame's motion blur starts.
  var previousCamera: PinholeCamera<Double>?
  /// Frames seen, and frames selected by ``RecordingOverlay/range`` and ``RecordingOverlay/every``.
  private var frameNumber = -1, selectedFrames = -1
  /// Why each frame or tap was skipped (``RecordingOverlay/lenient``).
  private(set) var skipped: [String] = []

  init(_ overlay: RecordingOverlay, reader: RecordingReader, geoFrame: LocalTangentFrame) throws {
    self.overlay = overlay
    self.reader = reader
    app = AppSessionAlignment(frame: overlay.scene.geoFrame ?? geoFrame)
    drawCalls = try OverlayDrawCalls(
      scene: overlay.scene, highlightColor: overlay.highlightColor, ghost: overlay.ghost)
    images = RecordingFrameImages(baseFolder: reader.baseFolder)
    hasLabels = overlay.scene.objects.contains { $0.label != nil }
  }

  var scene: Scene { overlay.scene }

  /// The scene with its geo-anchored content where the replay's alignment has placed it (nil
  /// before there is an alignment).
  var placedScene: Scene? { app.alignment.map { scene.placingGeoAnchors(with: $0) } }

  /// Reads every record, drawing the selected frames (see ``RecordingOverlay/render(_:include:progress:layers:emit:)``).
  func run(
    include: (Selection) -> Bool, progress: ((Double) -> Void)?,
    layers: ((Selection, RGBA8Image, DepthImage) throws -> Void)?,
    emit: (Selection, RGBA8Image) throws -> Void
  ) throws {
    var records = 0
    // A frame between two poses waits for the second, to be drawn with the pose at its own time.
    var waiting: CameraFrameSample?
    func drawWaiting(before next: CameraPoseSample?) throws {
      guard let frame = waiting else { return }
      waiting = nil
      let stale = lastPose
      if let before = stale, let next { lastPose = interpolated(before, next, at: frame.time) }
      defer { lastPose = stale }
      try consume(frame, include: include, layers: layers, emit: emit)
      // After each frame too: the frame is the unit of work a caller's time limit counts.
      progress?(reader.fractionRead)
    }
    while let record = try reader.next() {
      records += 1
      if records & 0x3FF == 0 { progress?(reader.fractionRead) }
      app.consume(record)
      switch record {
      case .pose(let pose):
        try drawWaiting(before: pose)
        lastPose = pose
      case .tap(let tap) where overlay.replaysTaps && !scene.targets.isEmpty:
        do { try replay(tap) } catch let error as SceneError where overlay.lenient {
          skipped.append(error.description)
        }
      case .frame(let frame):
        try drawWaiting(before: nil)
        waiting = frame
        // A frame with a pose at its own time (a phone's) is drawn now.
        if lastPose?.time == frame.time { try drawWaiting(before: nil) }
      default: break
      }
    }
    try drawWaiting(before: nil)
    progress?(1)
  }

  /// The camera pose at `time` between `before` and `after` (ARRecording's trajectory
  /// interpolation: translation linear, rotation slerped), when `time` lies between them and both
  /// are within the overlay's pose tolerance; else `before` (the phone's own frames have a pose
  /// at their time: nothing to interpolate).
  func interpolated(_ before: CameraPoseSample, _ after: CameraPoseSample, at time: Double)
    -> CameraPoseSample
  {
    let pair = Trajectory(
      timestamps: [before.time, after.time], poses: [before.worldFromCamera, after.worldFromCamera])
    guard before.time < time, time < after.time,
      let between = pair.pose(at: time, maxDifference: overlay.poseTolerance)
    else { return before }
    var pose = before
    pose.time = time
    pose.worldFromCamera = between
    return pose
  }

  /// Draws `frame` and hands it on, when it is selected and included.
  private func consume(
    _ frame: CameraFrameSample, include: (Selection) -> Bool,
    layers: ((Selection, RGBA8Image, DepthImage) throws -> Void)?,
    emit: (Selection, RGBA8Image) throws -> Void
  ) throws {
    // Drawn or not, this frame's camera is where the next frame's motion starts.
    defer { previousCamera = frameCamera(frame) }
    guard let selection = select(frame), include(selection) else { return }
    let drawn: DrawnFrame
    do { drawn = try draw(frame, withLayers: layers != nil) } catch let error as SceneError
      where overlay.lenient
    {
      skipped.append(error.description)
      return
    }
    try emit(selection, drawn.image)
    if let layers, let content = drawn.overlay, let depth = drawn.depth {
      try layers(selection, content, depth)
    }
  }

  /// `frame` as a selection when the overlay's range, step and shard select it; nil otherwise.
  private func select(_ frame: CameraFrameSample) -> Selection? {
    frameNumber += 1
    if let k = frame.cameraIntrinsics { (lastIntrinsics, lastLens) = (k, frame.lens) }
    if let range = overlay.range, !range.contains(frameNumber) { return nil }
    guard frameNumber % overlay.every == 0 else { return nil }
    selectedFrames += 1
    guard overlay.shard.contains(selectedFrames) else { return nil }
    return Selection(index: frameNumber, time: frame.time)
  }

  /// Hit-tests `tap` as the app would have at that moment.
  private func replay(_ tap: TapSample) throws {
    guard let pose = lastPose, let intrinsics = lastIntrinsics else {
      throw SceneError.render(
        path: reader.path, reason: "the tap at t = \(tap.time) s comes before any frame and pose")
    }
    lastTap = tap
    var seen = shown(placedScene)
    seen.camera = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose.worldFromCamera)
    // A raw frame's tap is where the lens showed the point: hit-tested where a pinhole would.
    guard let point = intrinsics.pinhole.undistortedPixel(tap.point, lens: lastLens) else {
      throw SceneError.render(
        path: reader.path, reason: "the tap at t = \(tap.time) s lies outside the lens's image circle")
    }
    do {
      let result = try seen.tapHitTester().hitTest(tap: point, policy: overlay.tapPolicy)
      selectedTarget = result.best.flatMap { code in scene.targets.firstIndex { $0.code == code } }
    } catch {
      throw SceneError.render(path: reader.path, reason: "the tap at t = \(tap.time) s: \(error)")
    }
  }

  /// The scene as the app shows it: geo-anchored content where `placed` has it, or, before
  /// there is an alignment, not shown at all: no mesh to hit, no point to tap, no label
  /// (objects keep their indices, which targets refer to).
  func shown(_ placed: Scene?) -> Scene {
    if let placed { return placed }
    guard drawCalls.hasGeoContent else { return scene }
    var shown = scene
    let hidden = Set(scene.objects.indices.filter { scene.objects[$0].geoAnchor != nil })
    shown.targets.removeAll { hidden.contains($0.object) }
    for i in hidden {
      shown.objects[i].mesh.indices = []
      shown.objects[i].label = nil
    }
    return shown
  }

  /// The warp of `frame`'s lens (nil for an undistorted frame), made once for frames that share
  /// their intrinsics and lens.
  func lensWarp(_ frame: CameraFrameSample, _ intrinsics: CameraIntrinsics<Double>) -> LensWarp? {
    guard frame.lens != .none else { return nil }
    if let warp = cachedWarp, warp.lens == frame.lens, warp.intrinsics == intrinsics { return warp }
    let warp = LensWarp(intrinsics: intrinsics, lens: frame.lens)
    cachedWarp = warp
    return warp
  }

  /// The camera a frame's content is rendered with (the view's, with a viewport; the pinhole
  /// of its lens's warp, for a raw frame), when it has a pose and intrinsics.
  private func frameCamera(_ frame: CameraFrameSample) -> PinholeCamera<Double>? {
    guard let pose = lastPose, abs(pose.time - frame.time) <= overlay.poseTolerance,
      let k = frame.cameraIntrinsics
    else { return nil }
    if let warp = lensWarp(frame, k) {
      return PinholeCamera(intrinsics: warp.pinhole, worldFromCamera: pose.worldFromCamera)
    }
    let camera = PinholeCamera(intrinsics: k, worldFromCamera: pose.worldFromCamera)
    guard let viewport = try? overlay.viewport(for: k) else { return camera }
    return viewport.viewCamera(for: camera)
  }

  /// The error naming `frame` and the recording.
  func failure(_ frame: CameraFrameSample, _ reason: String) -> SceneError {
    .render(path: reader.path, reason: "frame \(frame.index) (t = \(frame.time) s): \(reason)")
  }
}
