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
    if let motionBlur { overlay.motionBlur = MotionBlur(shutter: motionBlur) }
    if let grain { overlay.grain = CameraGrain(strength: grain) }
    if let (size, orientation) = screenOptions() {
      overlay.viewSize = size
      overlay.orientation = orientation
    }
    if let range {
      let parts = range.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 2, let a = parts[0], let b = parts[1], a >= 0, b >= a else {
        throw InputFailure(message: "--range: expected A:B with 0 ≤ A ≤ B, got '\(range)'")
      }
      overlay.range = a...b
    }
    if let shard {
      do { overlay.shard = try ShardSelection(parsing: shard) } catch {
        throw InputFailure(message: "--shard \(shard): \(error)")
      }
    }
    if let frames {
      do { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) } catch
      {
        throw InputFailure(message: "\(frames): cannot create the folder: \(error.localizedDescription)")
      }
    }
    func framePath(_ index: Int, _ kind: String = "frame") -> String? {
      frames.map { $0 + "/\(kind)_" + String(format: "%06d", index) + ".png" }
    }
    let reader: RecordingReader
    do { reader = try RecordingReader(path: path, lenient: lenient) } catch { throw InputFailure(error) }
    var writer: VideoWriter?
    let files = FrameFileWriter()
    // Whatever happens, no frame is left half-written behind this command.
    defer { try? files.finish() }
    var (rendered, kept) = (0, 0)
    var skipped: [String] = []
    let progress = ProgressOutput("arscene: rendering \(path)")
    do {
      skipped = try overlay.render(
        reader,
        include: { selection in
          // A frame already on disk is kept (a run resumes), unless the video needs its pixels.
          guard let file = framePath(selection.index), FileManager.default.fileExists(atPath: file) else {
            return true
          }
          if video == nil { kept += 1 }
          return video != nil
        },
        progress: { progress.update($0) },
        layers: layers
          ? { selection, overlay, depth in
            guard let overlayPath = framePath(selection.index, "overlay"),
              let depthPath = framePath(selection.index, "depth")
            else { return }
            try files.write(
              premultiplied ? overlay.premultiplied : overlay, to: overlayPath, compression: renderPNGLevel)
            try files.writeDepth(depth, to: depthPath, compression: renderPNGLevel)
          } : nil
      ) { selection, image in
        if let file = framePath(selection.index) {
          if FileManager.default.fileExists(atPath: file) {
            kept += 1
          } else {
            try files.write(image, to: file, compression: pngLevel ?? 1)
            rendered += 1
          }
        } else {
          rendered += 1
        }
        if let video {
          if writer == nil {
            writer = try VideoWriter(
              path: video, width: image.width, height: image.height,
              framesPerSecond: videoFps ?? 30 / Double(every ?? 1))
          }
          try writer!.append(image)
        }
      }
      try files.finish()
      try writer?.finish()
    } catch let failure as InputFailure {
      throw failure
    } catch { throw InputFailure(error) }
    for reason in reader.warnings + skipped {
      FileHandleOutput.standardError.write("arscene: warning: \(reason)\n")
    }
    let skippedNote = skipped.isEmpty ? "" : ", \(skipped.count) skipped"
    FileHandleOutput.standardError.write(
      "arscene: \(rendered) frames rendered, \(kept) already there\(skippedNote)\n")
  }
}
