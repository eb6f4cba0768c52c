import ARFiles
import ARImage
import ARImageIO
import ARRecording
import ARVideo

/// A recording's camera images, decoded: files named relative to the recording's folder, and
/// frames of its videos through one ffmpeg pipe per video (frames asked for in order, as a
/// replay does, stream; going back reopens the pipe).
package final class RecordingFrameImages {
  /// The folder relative file names start from (`RecordingReader.baseFolder`).
  package let baseFolder: String
  private var videos: [String: VideoFrameReader] = [:]

  /// Images found by the recording's paths, relative to `baseFolder`.
  package init(baseFolder: String) { self.baseFolder = baseFolder }

  /// The file a frame's image, depth or confidence path names, relative to ``baseFolder``.
  /// - Throws: `ReferenceError` when it leads outside the recording's folder and every folder
  ///   the user allowed (`FileReferences`).
  package func file(_ path: String) throws(ReferenceError) -> String {
    try FileReferences.resolve(path, inFolder: baseFolder, referencedBy: baseFolder)
  }

  /// The image of `source`, pending: a file decodes on another thread while the caller goes on
  /// (its errors come when the result is asked for); a video's frame is read from its pipe now.
  /// - Throws: The video's error (`ARVideo` cannot start ffmpeg or find the frame).
  package func pendingImage(_ source: FrameImageSource) throws -> () throws -> RGBA8Image {
    switch source {
    case .file(let path):
      let file = try file(path)
      let load = BackgroundResult { try ImageFile.readRGBA8(file) }
      return { try load.value() }
    case .video(let path, let index):
      let full = try file(path)
      if videos[full] == nil { videos[full] = try VideoFrameReader(path: full) }
      let image = try videos[full]!.frame(index)
      return { image }
    }
  }

  /// The image of `source`, decoded now.
  package func image(_ source: FrameImageSource) throws -> RGBA8Image { try pendingImage(source)() }
}
