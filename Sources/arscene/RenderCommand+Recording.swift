import ARImage
import ARImageIO
import ARRecording
import ARRender
import ARReplay
import ARScene
import ARSceneRendering
import ARVideo
import Foundation

extension RenderCommand {
  /// Recording mode: every selected frame of `path` drawn and written.
  func renderRecording(_ path: String, settings: RenderSettings) throws {
    guard let scenePath = recordingScene else { return }
    var overlay: RecordingOverlay
    do { overlay = RecordingOverlay(scene: try Scene.read(path: scenePath)) } catch {
      throw InputFailure(error)
    }
    overlay.settings = settings
    overlay.every = every ?? 1
    let confidence = (depthConfidence ?? .medium).level
    overlay.occlusion = noOcclusion ? nil : DepthOcclusion(minimumConfidence: confidence)
    overlay.lenient = lenient
    if let motionBlur, motionBlur > 0 {
      overlay.motionBlur = MotionBlur(shutter: motionBlur, phase: shutterPhase ?? 0.5)
    }
    if let grain { overlay.grain = CameraGrain(strength: grain) }
    if let (size, orientation) = screenOptions() {
      overlay.viewSize = size
      overlay.orientation = orientation
    }
    overlay.range = range?.frames
    overlay.shard = shard ?? .whole
    if let truth = try truthTrack.trajectoryInARKitFrame() { overlay.ghost = TruthGhost(truth: truth) }
    let reader: RecordingReader
    do {
      reader = try RecordingReader(
        path: path, format: from, lenient: lenient, framesPerSecond: fps,
        camera: try frameCamera.stated(intrinsics: intrinsics))
    } catch { throw InputFailure(error) }
    var output = RecordingOutput(folder: frames, video: video)
    output.videoFramesPerSecond = videoFps
    output.framePNGLevel = pngLevel ?? 1
    output.layers = layers
    output.layersPNGLevel = renderPNGLevel
    output.premultiplied = premultiplied
    let progress = ProgressOutput("arscene: rendering \(path)")
    let summary: RecordingRenderSummary
    // Each frame done buys the next its time: a frame of up to 4096 × 4096 pixels, every sample.
    let perFrame = CommandTimeLimit.budget(pixelSamples: 4096 * 4096 * Double(samples))
    let frameDone = { (fraction: Double) in
      CommandTimeLimit.extend(by: perFrame)
      progress.update(fraction)
    }
    do { summary = try overlay.render(reader, to: output, progress: frameDone) } catch {
      throw InputFailure(error)
    }
    let (rendered, kept, skipped) = (summary.rendered, summary.kept, summary.skipped)
    for reason in reader.warnings + skipped {
      FileHandleOutput.standardError.write("arscene: warning: \(reason)\n")
    }
    let skippedNote = skipped.isEmpty ? "" : ", \(skipped.count) skipped"
    FileHandleOutput.standardError.write(
      "arscene: \(rendered) frames rendered, \(kept) already there\(skippedNote)\n")
  }
}
