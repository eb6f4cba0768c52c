import ARFilm
import ARGeo
import ARHit
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRecording
import ARRender
import ARScene
import ARSceneRendering
import ARVideo

/// Renders a scene's content over every frame of a recording, exactly where the phone would
/// have drawn it: each frame with its own pose and intrinsics, over its own camera image, with
/// geo-anchored content placed by the session alignment the recording's replay has reached at
/// that frame (ARRecording's `AppSessionAlignment`, the app's side `arscene validate` composes too).
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
  package var shard = ShardSelection.whole
  /// The renderer's settings (supersampling, threads).
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
  /// -tested through that moment's camera, as `Scene.tapHitTester(viewSize:orientation:)`
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
  /// Draw where the truth puts the content beside where the app drew it, as a translucent ghost
  /// (nil: none).
  public var ghost: TruthGhost? = nil
  /// Skip a frame that cannot be drawn (no pose, a missing or wrong-sized image) instead of
  /// failing; ``render(_:include:progress:layers:emit:)`` returns why each was skipped.
  public var lenient = false

  /// An overlay of `scene` with the defaults above.
  public init(scene: Scene) { self.scene = scene }

  /// A frame this overlay would draw, before it is drawn.
  public struct FrameSelection: Sendable {
    /// The frame's index among the recording's frames.
    public var index: Int
    /// The frame's time, seconds on the recording's clock.
    public var time: Double
  }

  /// Reads all of `reader`, calling `include` for each selected frame (return false to skip it:
  /// already rendered, say) and `emit` with each rendered one, in frame order; with `layers`,
  /// also with the frame's content alone (straight alpha, labels and cursor included, blurred
  /// as composited, before depth occlusion) and its depth (metres along the view axis, +∞ where nothing
  /// is drawn). `progress` gets the fraction of the recording read every 1,024 records and
  /// after every frame. Returns, with ``lenient``, why each frame that could not be drawn was
  /// skipped.
  ///
  /// - Throws: `SceneError.render(path:reason:)` naming the frame and file for a frame with
  ///   no pose within ``poseTolerance``, no intrinsics or image size (a missing video named), a missing or unreadable
  ///   image, or an image of another size than its intrinsics; the same for ``every`` below 1 or
  ///   a negative ``poseTolerance``; ARRecording's `RecordingError` from reading.
  @discardableResult
  public func render(
    _ reader: RecordingReader, include: (FrameSelection) -> Bool = { _ in true },
    progress: ((Double) -> Void)? = nil,
    layers: ((FrameSelection, RGBA8Image, DepthImage) throws -> Void)? = nil,
    emit: (FrameSelection, RGBA8Image) throws -> Void
  ) throws -> [String] {
    guard every >= 1 else {
      throw SceneError.render(path: reader.path, reason: "every is \(every); it must be at least 1")
    }
    guard poseTolerance >= 0, poseTolerance.isFinite else {
      throw SceneError.render(
        path: reader.path, reason: "poseTolerance is \(poseTolerance) s; it must be finite and ≥ 0")
    }
    let replay = try RecordingReplay(self, reader: reader, geoFrame: defaultFrame)
    try replay.run(include: include, progress: progress, layers: layers, emit: emit)
    return replay.skipped
  }

  /// The screen a frame with `intrinsics` is shown on, or nil when it is the image as captured.
  func viewport(for intrinsics: CameraIntrinsics<Double>) throws(HitError) -> TapViewport? {
    guard viewSize != nil || orientation != .landscapeRight else { return nil }
    return try TapViewport.screen(showing: intrinsics, size: viewSize, orientation: orientation)
  }

  /// For a scene without `geo`: any frame (nothing is geo-anchored, so none is used).
  private var defaultFrame: LocalTangentFrame {
    try! LocalTangentFrame(origin: GeodeticCoordinate(latitudeDegrees: 0, longitudeDegrees: 0, height: 0))
  }
}
