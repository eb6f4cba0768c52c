import ARMath

/// The camera a user states for a recording's frames, over what the recording says of it: a
/// calibration the capture lacks (a TUM RGB-D folder renamed, a `transforms.json` without a
/// lens), or a better one than it has. Each field given replaces that field in every frame;
/// fields not given keep the recording's.
///
/// `arscene`'s `--camera NAME`, `--intrinsics`, `--distortion`/`--fisheye` and `--image-size`.
public struct RecordingCamera: Sendable, Equatable {
  /// Focal lengths and principal point, pixels (ARScene's convention: pixel centres at +0.5),
  /// for an image of ``imageSize`` (or the frames' own size).
  public var intrinsics: Pinhole<Double>?
  /// The lens's distortion (`LensDistortion.none` states an undistorted image).
  public var lens: LensDistortion?
  /// Width and height of the frames' images, pixels.
  public var imageSize: SIMD2<Int>?

  /// A camera of these fields, any of which may be left out.
  public init(intrinsics: Pinhole<Double>? = nil, lens: LensDistortion? = nil, imageSize: SIMD2<Int>? = nil) {
    (self.intrinsics, self.lens, self.imageSize) = (intrinsics, lens, imageSize)
  }

  /// Whether it states nothing.
  public var isEmpty: Bool { intrinsics == nil && lens == nil && imageSize == nil }

  /// The frame with the stated fields in place of its own.
  public func applied(to frame: CameraFrameSample) -> CameraFrameSample {
    var frame = frame
    if let intrinsics { frame.intrinsics = intrinsics }
    if let lens { frame.lens = lens }
    if let imageSize { frame.imageSize = imageSize }
    return frame
  }

  /// This camera with `other`'s stated fields in place of its own.
  public func overridden(by other: RecordingCamera) -> RecordingCamera {
    RecordingCamera(
      intrinsics: other.intrinsics ?? intrinsics, lens: other.lens ?? lens,
      imageSize: other.imageSize ?? imageSize)
  }

  // MARK: Published cameras

  /// The cameras of public datasets by name (`tum-freiburg1`…), with their published intrinsics,
  /// lens and image size.
  ///
  /// TUM RGB-D's three Kinects, from the dataset's "File Formats" page (the values ORB-SLAM2's
  /// TUM1–3.yaml also use), their principal points moved by +0.5 px into ARScene's convention;
  /// freiburg3's images are already undistorted.
  public static let published: [String: RecordingCamera] = [
    "tum-freiburg1": RecordingCamera(
      intrinsics: Pinhole(fx: 517.306408, fy: 516.469215, cx: 319.143040, cy: 255.813989),
      lens: try! LensDistortion(opencv: [0.262383, -0.953104, -0.005358, 0.002628, 1.163314]),
      imageSize: SIMD2(640, 480)),
    "tum-freiburg2": RecordingCamera(
      intrinsics: Pinhole(fx: 520.908620, fy: 521.007327, cx: 325.641442, cy: 250.201764),
      lens: try! LensDistortion(opencv: [0.231222, -0.784899, -0.003257, -0.000105, 0.917205]),
      imageSize: SIMD2(640, 480)),
    "tum-freiburg3": RecordingCamera(
      intrinsics: Pinhole(fx: 535.4, fy: 539.2, cx: 320.6, cy: 248.1), lens: LensDistortion.none,
      imageSize: SIMD2(640, 480)),
  ]

  /// The published camera called `name` (``published``).
  ///
  /// - Throws: ``RecordingError/unknownFormat(path:reason:)`` naming the cameras known, for
  ///   any other name.
  public init(published name: String) throws(RecordingError) {
    guard let camera = Self.published[name.lowercased()] else {
      throw .unknownFormat(
        path: name,
        reason: "no published camera by that name (\(Self.published.keys.sorted().joined(separator: ", ")))")
    }
    self = camera
  }
}
