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
  private var archives: [String: ZipArchive] = [:]

  /// Images found by the recording's paths, relative to `baseFolder`.
  package init(baseFolder: String) { self.baseFolder = baseFolder }

  /// The file a frame's image, depth or confidence path names, relative to ``baseFolder``.
  /// - Throws: `ReferenceError` when it leads outside the recording's folder and every folder
  ///   the user allowed (`FileReferences`).
  package func file(_ path: String) throws(ReferenceError) -> String {
    try FileReferences.resolve(path, inFolder: baseFolder, referencedBy: baseFolder)
  }

  /// The archive `path` names (relative to ``baseFolder``), opened once.
  package func archive(_ path: String) throws -> ZipArchive {
    let full = try file(path)
    if let open = archives[full] { return open }
    if ZipArchive.inflate == nil { ZipArchive.inflate = { try RawDeflate.inflate($0, size: $1) } }
    let opened = try ZipArchive(path: full)
    archives[full] = opened
    return opened
  }

  /// The image of `source` (an entry of `archive` when the frame names one), pending: a file
  /// decodes on another thread while the caller goes on (its errors come when the result is
  /// asked for); a video's frame is read from its pipe now.
  /// - Throws: The video's error (`ARVideo` cannot start ffmpeg or find the frame).
  package func pendingImage(_ source: FrameImageSource, in archive: String? = nil) throws -> () throws ->
    RGBA8Image
  {
    switch source {
    case .file(let path) where archive != nil:
      let zip = try self.archive(archive!)
      let load = BackgroundResult {
        try ImageFile.decodeRGBA8(try zip.contents(path, limit: 256 << 20), name: path)
      }
      return { try load.value() }
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

  /// The image of `source` (in `archive` when given), decoded now.
  package func image(_ source: FrameImageSource, in archive: String? = nil) throws -> RGBA8Image {
    try pendingImage(source, in: archive)()
  }

  /// A frame's measured depth (in ``CameraFrameSample/depthPerMetre`` units a metre) and its
  /// confidence, as 16- and 8-bit images: PNG files, Record3D's LZFSE-compressed floats in
  /// metres (made millimetres, 0 where not measured) and bytes, Android's `DEPTH16` files, or
  /// EXR images in metres; nil without depth.
  package func depth(of frame: CameraFrameSample) throws -> (depth: RGBA16Image, confidence: RGBA8Image?)? {
    guard let depthPath = frame.depthPath else { return nil }
    switch frame.depthEncoding {
    case .png16:
      let read = { (path: String) throws -> String in
        guard frame.archive == nil else {
          throw RecordingError.unreadable(path: path, reason: "a PNG depth inside an archive is not read")
        }
        return try self.file(path)
      }
      return (
        try ImageFile.readRGBA16(read(depthPath)),
        try frame.confidencePath.map { try ImageFile.readRGBA8(read($0)) }
      )
    case .lzfseFloat32(let width, let height):
      guard let archive = frame.archive else {
        throw RecordingError.unreadable(path: depthPath, reason: "LZFSE depth outside an archive is not read")
      }
      return try Record3DDepth.decode(
        archive: self.archive(archive), depth: depthPath, confidence: frame.confidencePath, width: width,
        height: height, unitsPerMetre: frame.depthPerMetre)
    case .androidDepth16(let width, let height):
      guard frame.archive == nil else {
        throw RecordingError.unreadable(
          path: depthPath, reason: "a DEPTH16 depth inside an archive is not read")
      }
      let decoded = try AndroidDepth16.decode(
        path: file(depthPath), width: width, height: height, unitsPerMetre: frame.depthPerMetre)
      return (decoded.depth, decoded.confidence)
    case .exr:
      guard frame.archive == nil else {
        throw RecordingError.unreadable(path: depthPath, reason: "an EXR depth inside an archive is not read")
      }
      let file = try file(depthPath)
      let metres = try EXR.decodeChannel(FileIO.read(file), path: file)
      let depth = Record3DDepth.depthUnits(
        metres.pixels, width: metres.width, height: metres.height, unitsPerMetre: frame.depthPerMetre)
      return (depth, nil)
    }
  }
}
