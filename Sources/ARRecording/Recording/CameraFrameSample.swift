import ARMath

/// A camera frame: its intrinsics and where its image (and depth) are.
public struct CameraFrameSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The frame's number in its recording (its index in the video, for a video).
  public var index: Int
  /// Focal lengths and principal point, pixels, for an image of ``imageSize``; nil when not
  /// logged.
  public var intrinsics: Pinhole<Double>?
  /// Width and height of the image the intrinsics refer to, pixels; nil when unknown.
  public var imageSize: SIMD2<Int>?
  /// Where the image is.
  public var image: FrameImageSource?
  /// A depth image for this frame (16-bit PNG of ``depthPerMetre`` units a metre along the view
  /// axis, 0 where nothing was measured), relative to the recording.
  public var depthPath: String?
  /// The depth image's units a metre: 1000 (millimetres, ARKit's and most apps'), or another
  /// capture's (TUM RGB-D's Kinect depth: 5000).
  public var depthPerMetre: Double = 1000
  /// The depth's confidence image (8-bit PNG of 0 low, 1 medium, 2 high), relative to the
  /// recording.
  public var confidencePath: String?
  /// A zip archive, relative to the recording, whose entries ``image``, ``depthPath`` and
  /// ``confidencePath`` name (a Record3D `.r3d` capture); nil when they are files.
  public var archive: String?
  /// How the depth (and its confidence) are stored.
  public var depthEncoding: DepthEncoding = .png16
  /// The lens's distortion, when the image is a raw frame (a webcam's, a drone's) rather than
  /// an undistorted one (ARKit's): ``intrinsics`` are then its pinhole part, and content is
  /// drawn bent as the lens bends the image.
  public var lens: LensDistortion

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, index: Int, intrinsics: Pinhole<Double>? = nil, imageSize: SIMD2<Int>? = nil,
    image: FrameImageSource? = nil, depthPath: String? = nil, confidencePath: String? = nil,
    lens: LensDistortion = .none
  ) {
    self.lens = lens
    self.time = time
    self.index = index
    self.intrinsics = intrinsics
    self.imageSize = imageSize
    self.image = image
    self.depthPath = depthPath
    self.confidencePath = confidencePath
  }
}

extension CameraFrameSample {
  /// The intrinsics with the image size, when both are known.
  public var cameraIntrinsics: CameraIntrinsics<Double>? {
    guard let k = intrinsics, let size = imageSize else { return nil }
    return CameraIntrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: size.x, height: size.y)
  }
}

/// How a frame's depth image is stored.
public enum DepthEncoding: Sendable, Equatable {
  /// A 16-bit PNG of ``CameraFrameSample/depthPerMetre`` units a metre, 0 where nothing was
  /// measured; its confidence an 8-bit PNG.
  case png16
  /// Record3D's: LZFSE-compressed little-endian 32-bit floats, metres, row by row, `width` ×
  /// `height` of them (NaN where nothing was measured); its confidence LZFSE-compressed bytes
  /// (0 low, 1 medium, 2 high) of the same size.
  case lzfseFloat32(width: Int, height: Int)
  /// Android's `DEPTH16` as a file of its own without a header (3D Recorder's
  /// `NNNNNNNN_depth16.bin`): little-endian 16-bit samples, row by row, `width` × `height`, each
  /// a range in millimetres (low 13 bits, 0 where nothing was measured) and a confidence (top 3
  /// bits: 0 full, 1 none, `c` otherwise `(c − 1)/7`), read as ARKit's levels: below 1/3 low,
  /// below 2/3 medium, else high.
  case androidDepth16(width: Int, height: Int)
  /// An OpenEXR image of one channel (the only one, else `Z`, `R` or `Y`), metres along the
  /// view axis (0, NaN or infinite where nothing was measured): Record3D's EXR export. Its size
  /// is the file's own; there is no confidence.
  case exr
}
