import ARImage
import ARImageIO
import ARRecording
import ARVideo
import Foundation

extension RecordingOverlay {
  /// Renders every selected frame of `reader` to `output`: PNG files written on other threads
  /// while the next frames render (nothing half-written is left behind, whatever fails), the
  /// video fed as frames come. A frame whose file is already in the folder is kept and not
  /// drawn, unless the video needs its pixels.
  ///
  /// - Throws: what ``render(_:include:progress:layers:emit:)`` throws, `FileIOError` for a
  ///   folder that cannot be made or a file that cannot be written, `VideoError` from ffmpeg.
  public func render(
    _ reader: RecordingReader, to output: RecordingOutput, progress: ((Double) -> Void)? = nil
  ) throws -> RecordingRenderSummary {
    if let folder = output.folder {
      do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch
      {
        throw FrameFolderError(path: folder, reason: error.localizedDescription)
      }
    }
    var summary = RecordingRenderSummary()
    var writer: VideoWriter?
    let files = FrameFileWriter()
    defer { try? files.finish() }
    let onDisk = { (index: Int) in
      output.path(of: index).map { FileManager.default.fileExists(atPath: $0) } ?? false
    }
    summary.skipped = try render(
      reader,
      include: { selection in
        guard onDisk(selection.index) else { return true }
        if output.video == nil { summary.kept += 1 }
        return output.video != nil
      },
      progress: progress,
      layers: output.layers && output.folder != nil
        ? { selection, content, depth in
          try files.write(
            output.premultiplied ? content.premultiplied : content,
            to: output.path(of: selection.index, "overlay")!,
            compression: output.layersPNGLevel)
          try files.writeDepth(
            depth, to: output.path(of: selection.index, "depth")!, compression: output.layersPNGLevel)
        } : nil
    ) { selection, image in
      if onDisk(selection.index) {
        summary.kept += 1
      } else {
        if let file = output.path(of: selection.index) {
          try files.write(image, to: file, compression: output.framePNGLevel)
        }
        summary.rendered += 1
      }
      if let video = output.video {
        if writer == nil {
          writer = try VideoWriter(
            path: video, width: image.width, height: image.height,
            framesPerSecond: output.videoFramesPerSecond ?? 30 / Double(every))
        }
        try writer!.append(image)
      }
    }
    try files.finish()
    try writer?.finish()
    return summary
  }
}
