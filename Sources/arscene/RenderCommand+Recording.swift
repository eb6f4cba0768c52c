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
    let ghost = try truthTrack.trajectoryInARKitFrame().map { TruthGhost(truth: $0) }
    _ = try renderOne(
      path, scene: { try Self.readScene(scenePath) }, frames: frames, video: video, shard: shard ?? .whole,
      ghost: ghost, settings: settings)
  }

  /// Manifest mode: each recording of this task's share of the manifest at `path`, drawn to its
  /// line's outputs, one after another (each on every thread); the report printed as JSON.
  func renderManifest(_ path: String, settings: RenderSettings) throws {
    let manifest: RenderManifest
    do { manifest = try RenderManifest.read(path: path) } catch { throw InputFailure(error) }
    // Every line has a scene before anything is drawn: a batch does not fail half-way on it.
    if recordingScene == nil, let line = manifest.entries.first(where: { $0.scene == nil }) {
      throw InputFailure(
        message: "\(path):\(line.line): scene: missing, and no --scene gives one for such lines")
    }
    let selection = shard ?? .whole
    let chosen = manifest.entries.indices.filter { selection.contains($0) }
    CommandTimeLimit.extend(
      by: CommandTimeLimit.budget(
        bytes: chosen.map { CommandTimeLimit.size(of: manifest.entries[$0].recording) }.reduce(0, +)))
    var report = RenderShardReport(shard: selection.description, recordings: [])
    // A batch's lines mostly share a scene: each scene file is read (models, textures) once.
    var scenes: [String: Scene] = [:]
    for i in chosen {
      let entry = manifest.entries[i]
      FileHandleOutput.standardError.write(
        "arscene: rendering \(entry.recording) (line \(entry.line), \(i + 1) of \(manifest.entries.count))\n")
      let scenePath = entry.scene ?? recordingScene!
      let (summary, video) = try renderOne(
        entry.recording,
        scene: {
          if let read = scenes[scenePath] { return read }
          let read = try Self.readScene(scenePath)
          scenes[scenePath] = read
          return read
        }, frames: entry.frames, video: entry.video, shard: .whole, ghost: nil, settings: settings)
      report.recordings.append(
        RenderShardReport.Entry(recording: entry.recording, line: entry.line, summary: summary, video: video))
    }
    try JSONOutput.write(report)
  }

  /// Draws the frames of the recording at `path` (this `shard` of them) with the scene `scene`
  /// gives (asked only when there is something to draw) to `frames` and `video`: the summary,
  /// and what became of the video (`written`, `kept` when `--resume` found it there, nil
  /// without one).
  private func renderOne(
    _ path: String, scene: () throws -> Scene, frames: String?, video: String?, shard: ShardSelection,
    ghost: TruthGhost?, settings: RenderSettings
  ) throws -> (RecordingRenderSummary, String?) {
    // A video is renamed into place only once whole: with --resume, one already there is done.
    let videoKept = resume && video.map(Self.isRegularFile) == true
    if videoKept, frames == nil {
      FileHandleOutput.standardError.write("arscene: \(path): the video is already there\n")
      return (RecordingRenderSummary(), "kept")
    }
    var overlay = RecordingOverlay(scene: try scene())
    configure(&overlay, settings: settings)
    overlay.shard = shard
    overlay.ghost = ghost
    let reader: RecordingReader
    do {
      reader = try RecordingReader(
        path: path, format: from, lenient: lenient, framesPerSecond: fps,
        camera: try frameCamera.stated(intrinsics: intrinsics))
    } catch { throw InputFailure(error) }
    var output = RecordingOutput(folder: frames, video: videoKept ? nil : video)
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
    let videoNote = videoKept ? ", the video already there" : ""
    FileHandleOutput.standardError.write(
      "arscene: \(rendered) frames rendered, \(kept) already there\(skippedNote)\(videoNote)\n")
    return (summary, video == nil ? nil : videoKept ? "kept" : "written")
  }

  /// The overlay options every recording of the command shares.
  private func configure(_ overlay: inout RecordingOverlay, settings: RenderSettings) {
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
  }

  /// The scene file at `path`, read; a failure is bad input (exit 2).
  private static func readScene(_ path: String) throws -> Scene {
    do { return try Scene.read(path: path) } catch { throw InputFailure(error) }
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }
}
