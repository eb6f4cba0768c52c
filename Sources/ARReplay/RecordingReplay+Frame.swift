import ARFilm
import ARHit
import ARImage
import ARImageIO
import ARMath
import ARRecording
import ARRender
import ARScene
import ARSceneRendering
import Foundation

extension RecordingReplay {
  /// What drawing one frame needs, gathered once: its camera image (pending), the content as
  /// placed at that moment, and the cameras it is drawn with.
  struct FrameJob {
    let frame: CameraFrameSample
    let intrinsics: CameraIntrinsics<Double>
    /// The camera image: a file decodes on another thread while the content renders.
    let pendingImage: (() throws -> RGBA8Image)?
    /// The scene placed by the alignment the replay has reached (nil before there is one).
    let placed: Scene?
    let draws: [DrawCall]
    /// The phone screen the frame is shown on (nil: the image as captured).
    let viewport: TapViewport?
    /// The camera the content is rendered with: the sensor's as the screen shows it (through
    /// ``viewport``), or, for a raw frame, the pinhole of its lens's warp.
    let viewCamera: PinholeCamera<Double>
    let renderCamera: RenderCamera
    /// A raw frame's lens: the content is bent onto the frame's pixels.
    let warp: LensWarp?
    /// The camera labels are placed with: the frame's own (through ``warp``'s lens when there is one).
    let labelCamera: PinholeCamera<Double>
  }

  /// One frame drawn (with its content alone and depth when `withLayers`), or the error that
  /// names it.
  func draw(_ frame: CameraFrameSample, withLayers: Bool) throws -> DrawnFrame {
    let job = try prepare(frame)
    var image: RGBA8Image
    var layer: (overlay: RGBA8Image, depth: DepthImage)?
    do {
      let hasImage = job.pendingImage != nil
      let measured = overlay.occlusion != nil && hasImage ? try depthImages(of: frame, job.intrinsics) : nil
      let blurredFrom = overlay.motionBlur != nil ? previousCamera : nil
      if withLayers || job.warp != nil
        || (hasImage && (measured != nil || blurredFrom != nil || overlay.grain != nil))
      {
        (image, layer) = try composite(job, measured: measured, blurredFrom: blurredFrom)
      } else {
        // The camera image in linear light only here, where the renderer draws over it.
        let picture = try cameraPicture(job)
        image = try renderer.render(
          job.draws, camera: job.renderCamera, shading: .lit(scene.lighting),
          background: picture.map { $0.linear ?? $0.image.linear },
          backgroundColor: scene.backgroundColor, settings: overlay.settings, shadows: scene.shadows)
      }
    } catch let error as SceneError {
      throw error
    } catch { throw failure(frame, "\(error)") }
    finish(&image, layer: &layer, job: job, withLayers: withLayers)
    return (image, layer?.overlay, layer?.depth)
  }

  /// What a frame without a camera to draw with lacks, said as exactly as the recording allows:
  /// a missing video is named (its size is the frames').
  private func missingCamera(_ frame: CameraFrameSample) -> String {
    guard frame.intrinsics != nil else { return "no intrinsics to draw it with (the recording gives none)" }
    if case .video(let path, _)? = frame.image {
      let exists = (try? images.file(path)).map { FileManager.default.fileExists(atPath: $0) } ?? false
      if !exists { return "its video \(path) is missing, and with it the frames' image size" }
    }
    return "no image size to draw it with (the recording gives none)"
  }

  /// The frame's job: a pose within tolerance, intrinsics, the pending image and the content.
  private func prepare(_ frame: CameraFrameSample) throws -> FrameJob {
    guard let pose = lastPose, abs(pose.time - frame.time) <= overlay.poseTolerance else {
      throw failure(frame, "no camera pose within \(overlay.poseTolerance) s")
    }
    guard let intrinsics = frame.cameraIntrinsics else { throw failure(frame, missingCamera(frame)) }
    // A video's frame comes from its one ffmpeg pipe, here; a file's decodes meanwhile.
    var pending: (() throws -> RGBA8Image)?
    if let source = frame.image {
      do { pending = try images.pendingImage(source, in: frame.archive) } catch {
        throw failure(frame, "\(error)")
      }
    }
    // The geo-anchored content where the replay's alignment has placed it, once a frame.
    let placed = placedScene
    let draws = try drawCalls.draws(
      placing: placed, selected: overlay.replaysTaps ? selectedTarget : nil,
      ghostCorrection: ghostCorrection(at: frame.time, app: pose.worldFromCamera))
    var camera = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose.worldFromCamera)
    let labelCamera: PinholeCamera<Double>
    let viewport: TapViewport?
    do { viewport = try overlay.viewport(for: intrinsics) } catch {
      throw failure(frame, "the view: \(error)")
    }
    let warp = lensWarp(frame, intrinsics)
    if let warp {
      guard viewport == nil else {
        throw failure(
          frame, "a phone screen's view of a raw frame with a lens is not drawn; undistort the frames first")
      }
      labelCamera = camera
      camera = PinholeCamera(intrinsics: warp.pinhole, worldFromCamera: pose.worldFromCamera)
    } else {
      if let viewport { camera = viewport.viewCamera(for: camera) }
      labelCamera = camera
    }
    return FrameJob(
      frame: frame, intrinsics: intrinsics, pendingImage: pending, placed: placed, draws: draws,
      viewport: viewport, viewCamera: camera,
      renderCamera: RenderCamera(camera, near: scene.clipPlanes.lowerBound, far: scene.clipPlanes.upperBound),
      warp: warp, labelCamera: labelCamera)
  }

  /// Where the truth puts what the app drew at `time` (app world to app world), or nil without
  /// a ghost or a truth pose then: `E·G⁻¹·G₀·E₀⁻¹`, the content placed at the first frame with a
  /// truth pose (``TruthGhost``).
  private func ghostCorrection(at time: Double, app: RigidTransform<Double>) -> RigidTransform<Double>? {
    guard let ghost = overlay.ghost, let truth = ghost.pose(at: time) else { return nil }
    if ghostOrigin == nil { ghostOrigin = (app, truth) }
    let origin = ghostOrigin!
    return app * truth.inverse * origin.truth * origin.app.inverse
  }

  /// The content over nothing with its depth; blurred by the camera's motion, hidden behind
  /// the real surfaces, composited over the camera image (or the background colour), given the
  /// camera's grain.
  private func composite(
    _ job: FrameJob, measured: (depth: RGBA16Image, confidence: RGBA8Image?)?,
    blurredFrom: PinholeCamera<Double>?
  ) throws -> (RGBA8Image, (overlay: RGBA8Image, depth: DepthImage)) {
    var (content, depth) = try renderer.renderWithDepth(
      job.draws, camera: job.renderCamera, shading: .lit(scene.lighting), backgroundColor: .zero,
      settings: overlay.settings, shadows: scene.shadows)
    let cameraImage =
      try cameraPicture(job)?.image
      ?? backgroundImage(width: job.intrinsics.width, height: job.intrinsics.height)
    if let motionBlur = overlay.motionBlur, let blurredFrom {
      (content, depth) = motionBlur.apply(
        to: content, depth: depth, camera: job.viewCamera, previous: blurredFrom,
        threads: overlay.settings.threads)
    }
    if let warp = job.warp { (content, depth) = (warp.warped(content), warp.warped(depth)) }
    let viewport = job.viewport
    var image = (overlay.occlusion ?? DepthOcclusion()).composite(
      overlay: content, depth: depth, over: cameraImage,
      measured: measured.map { m in viewport.map { $0.viewMap(m.depth) } ?? m.depth },
      confidence: measured?.confidence.map { c in viewport.map { $0.viewMap(c) } ?? c },
      measuredPerMetre: Float(job.frame.depthPerMetre), threads: overlay.settings.threads)
    if let grain = overlay.grain {
      grain.apply(
        noise: CameraGrain.measure(cameraImage), to: &image, overlay: content, frame: job.frame.index)
    }
    return (image, (content, depth))
  }

  /// The scene's background colour as a frame of the given size: what layers are composited
  /// over when a frame has no camera image.
  private func backgroundImage(width: Int, height: Int) -> RGBA8Image {
    let colour = scene.backgroundColor, encoder = SRGB.Encoder.shared
    return RGBA8Image(
      width: width, height: height,
      fill: SIMD4(
        encoder.code(colour.x), encoder.code(colour.y), encoder.code(colour.z),
        UInt8((min(max(colour.w, 0), 1) * 255).rounded())))
  }

  /// The film look, the labels and the tap cursor on the finished frame (labels and cursor on
  /// the layer's content too).
  private func finish(
    _ image: inout RGBA8Image, layer: inout (overlay: RGBA8Image, depth: DepthImage)?, job: FrameJob,
    withLayers: Bool
  ) {
    // The film's grain is different in every frame, as film's is.
    if let film = scene.film {
      image = film.apply(
        to: image, context: FilmContext(seed: UInt64(job.frame.index), threads: overlay.settings.threads))
    }
    if hasLabels {
      let labelled = shown(job.placed)
      let lens = job.warp?.lens ?? .none
      labelled.drawLabels(on: &image, camera: job.labelCamera, lens: lens)
      if withLayers, layer != nil {
        labelled.drawLabels(on: &layer!.overlay, camera: job.labelCamera, lens: lens)
      }
    }
    if overlay.replaysTaps, let tap = lastTap {
      let ring = overlay.cursor ?? TapCursor(forWidth: image.width, height: image.height)
      let at = job.viewport?.viewPoint(forImagePixel: tap.point) ?? tap.point
      let age = job.frame.time - tap.time
      ring.draw(at: at, age: age, into: &image)
      if withLayers, layer != nil { ring.draw(at: at, age: age, into: &layer!.overlay) }
    }
  }

  /// The camera image once decoded, checked against the intrinsics, as the view shows it (and
  /// then in linear light too); nil for a frame without one.
  private func cameraPicture(_ job: FrameJob) throws -> (image: RGBA8Image, linear: LinearImage?)? {
    guard let pending = job.pendingImage else { return nil }
    let image: RGBA8Image
    do { image = try pending() } catch { throw failure(job.frame, "\(error)") }
    guard image.width == job.intrinsics.width, image.height == job.intrinsics.height else {
      throw failure(
        job.frame,
        "its image is \(image.width)×\(image.height) but its intrinsics are for \(job.intrinsics.width)×\(job.intrinsics.height)"
      )
    }
    guard let viewport = job.viewport else { return (image, nil) }
    let linear = viewport.viewImage(image.linear)
    return (linear.sRGB8, linear)
  }

  /// A frame's depth and confidence images, checked against each other and its image's shape;
  /// nil when it has none.
  private func depthImages(of frame: CameraFrameSample, _ intrinsics: CameraIntrinsics<Double>) throws -> (
    depth: RGBA16Image, confidence: RGBA8Image?
  )? {
    let measured: RGBA16Image, confidence: RGBA8Image?
    do {
      guard let read = try images.depth(of: frame) else { return nil }
      (measured, confidence) = read
    } catch { throw failure(frame, "\(error)") }
    if let confidence, confidence.width != measured.width || confidence.height != measured.height {
      throw failure(
        frame,
        "its confidence image is \(confidence.width)×\(confidence.height), its depth image \(measured.width)×\(measured.height)"
      )
    }
    // Depth maps are smaller than the image but cover the same field of view.
    let frameAspect = Double(intrinsics.width) / Double(intrinsics.height)
    let depthAspect = Double(measured.width) / Double(measured.height)
    guard abs(depthAspect / frameAspect - 1) < 0.01 else {
      throw failure(
        frame,
        "its depth image is \(measured.width)×\(measured.height), not the shape of its \(intrinsics.width)×\(intrinsics.height) image"
      )
    }
    return (measured, confidence)
  }
}
