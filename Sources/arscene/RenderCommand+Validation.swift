import ARRender
import ArgumentParser

extension RenderCommand {
  /// The three ways `render` is used, chosen by the argument and options given.
  enum Mode: String {
    case scene, model, recording, manifest
  }

  /// The mode the arguments choose; a usage error unless exactly one is chosen.
  func mode() throws -> Mode {
    let chosen: [Mode] = [
      scene != nil ? .scene : nil, model != nil ? .model : nil, recording != nil ? .recording : nil,
      manifest != nil ? .manifest : nil,
    ]
    .compactMap { $0 }
    guard chosen.count == 1 else {
      throw ValidationError("give one of a scene file, --model, --recording or --manifest")
    }
    return chosen[0]
  }

  /// The options given that only some modes take, with the modes that take them.
  var modeOptions: [(name: String, given: Bool, modes: Set<Mode>)] {
    [
      ("-o/--output", output != nil, [.scene, .model]),
      ("--width", width != nil, [.scene]),
      ("--height", height != nil, [.scene]),
      ("--depth-output", depthOutput != nil, [.scene, .model]),
      ("--overlay-output", overlayOutput != nil, [.scene]),
      ("--premultiplied", premultiplied, [.scene, .recording, .manifest]),
      ("--view", view != nil, [.scene, .recording, .manifest]),
      ("--orientation", orientation != nil, [.scene, .recording, .manifest]),
      ("--scene", recordingScene != nil, [.recording, .manifest]),
      ("--frames", frames != nil, [.recording]),
      ("--video", video != nil, [.recording]),
      ("--video-fps", videoFps != nil, [.recording, .manifest]),
      ("--every", every != nil, [.recording, .manifest]),
      ("--range", range != nil, [.recording, .manifest]),
      ("--shard", shard != nil, [.recording, .manifest]),
      ("--depth-confidence", depthConfidence != nil, [.recording, .manifest]),
      ("--no-occlusion", noOcclusion, [.recording, .manifest]),
      ("--layers", layers, [.recording, .manifest]),
      ("--motion-blur", motionBlur != nil, [.recording, .manifest]),
      ("--shutter-phase", shutterPhase != nil, [.recording, .manifest]),
      ("--grain", grain != nil, [.recording, .manifest]),
      ("--lenient", lenient, [.recording, .manifest]),
      ("--size", size != nil, [.model]),
      ("--time", time != nil, [.model]),
      ("--intrinsics", intrinsics != nil, [.model, .recording, .manifest]),
      ("--resume", resume, [.recording, .manifest]),
      ("--truth-track", truthTrack.truthTrack != nil, [.recording]),
      ("--from", from != nil, [.recording, .manifest]),
      ("--fps", fps != nil, [.recording, .manifest]),
      ("--camera/--distortion/--fisheye/--image-size", frameCamera.isGiven, [.recording, .manifest]),
      ("--world-from-camera", worldFromCamera != nil, [.model]),
      ("--world-from-model", worldFromModel != nil, [.model]),
      ("--near", near != nil, [.model]),
      ("--far", far != nil, [.model]),
      ("--shading", shading != nil, [.model]),
      ("--light", light != nil, [.model]),
    ]
  }

  /// Checks what the parser cannot: one mode, only its options, and values in range. Every
  /// failure here is a usage error (exit code 64).
  func validate() throws {
    do { _ = try RenderSettings(samplesPerPixel: samples, threads: threads) } catch {
      throw ValidationError("--samples/--threads: \(error)")
    }
    guard (0...9).contains(pngLevel ?? 2) else { throw ValidationError("--png-level must be from 0 to 9") }
    let mode = try mode()
    for option in modeOptions where option.given && !option.modes.contains(mode) {
      // Manifest mode came last and is named last, so that the older messages read as before.
      var modes =
        option.modes.subtracting([.manifest]).map(\.rawValue).sorted().joined(separator: " and ") + " mode"
      if option.modes.contains(.manifest) { modes += " and manifest mode" }
      throw ValidationError("\(option.name) applies to \(modes), not \(mode.rawValue) mode")
    }
    if let view, !view.fits(1...RenderSettings.maximumSide) {
      throw ValidationError(
        "--view: width and height must be whole pixels from 1 to \(RenderSettings.maximumSide)")
    }
    switch mode {
    case .recording:
      guard recordingScene != nil, frames != nil || video != nil else {
        throw ValidationError("--recording needs --scene and at least one of --frames and --video")
      }
      try validateRecordingMode()
    case .manifest: try validateRecordingMode()
    case .model: try validateModelMode()
    case .scene:
      guard output != nil else { throw ValidationError("-o/--output: where to write the PNG") }
    }
  }

  /// The options recording and manifest modes share, in range.
  private func validateRecordingMode() throws {
    if let every, every < 1 { throw ValidationError("--every must be at least 1") }
    if let motionBlur, !(motionBlur >= 0 && motionBlur <= 1) {
      throw ValidationError(
        "--motion-blur: the shutter fraction must be in [0, 1] (0: no blur), got \(motionBlur)")
    }
    if let shutterPhase, !(shutterPhase >= 0 && shutterPhase <= 1) {
      throw ValidationError(
        "--shutter-phase: expected 0 (exposure start) to 1 (its end), got \(shutterPhase)")
    }
    if let fps, !(fps > 0 && fps.isFinite && fps <= 100_000) {
      throw ValidationError("--fps: expected frames a second above 0, got \(fps)")
    }
    if let grain, !(grain >= 0 && grain <= 4) {
      throw ValidationError("--grain: the strength must be 0 to 4, got \(grain)")
    }
    if let videoFps, !(videoFps > 0 && videoFps <= 1000) {
      throw ValidationError("--video-fps: expected frames per second in (0, 1000], got \(videoFps)")
    }
    if layers, frames == nil, manifest == nil {
      throw ValidationError("--layers: needs --frames, the folder they are written to")
    }
  }

  private func validateModelMode() throws {
    guard output != nil else { throw ValidationError("-o/--output: where to write the PNG") }
    try ModelCommand.validate(time: time, tolerance: tolerance)
    guard let size, let intrinsics, let worldFromCamera else {
      throw ValidationError("--model needs --size, --intrinsics and --world-from-camera")
    }
    if !size.fits(1...RenderSettings.maximumSide) {
      throw ValidationError(
        "--size: width and height must be whole pixels from 1 to \(RenderSettings.maximumSide)")
    }
    _ = try modelPlacement(size: size, intrinsics: intrinsics, worldFromCamera: worldFromCamera)
    do {
      try RenderCamera.validateClipPlanes(
        near: near ?? RenderCamera.defaultNear, far: far ?? RenderCamera.defaultFar)
    } catch { throw ValidationError("--near and --far: \(error)") }
  }
}
