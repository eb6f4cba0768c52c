import ARMath

/// The camera's pose as the tracker reported it.
public struct CameraPoseSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Camera to world, metres, in ARKit's conventions: the camera looks down its −Z with +Y up
  /// in the image; the world is gravity-aligned with +Y up.
  public var worldFromCamera: RigidTransform<Double>
  /// How well the tracker was tracking.
  public var tracking: TrackingState

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, worldFromCamera: RigidTransform<Double>, tracking: TrackingState = .normal) {
    self.time = time
    self.worldFromCamera = worldFromCamera
    self.tracking = tracking
  }
}

/// ARKit's tracking state (`ARCamera.TrackingState`), with the reason when limited.
public enum TrackingState: Sendable, Equatable {
  case normal
  case notAvailable
  /// Limited, with ARKit's reason (`initializing`, `excessiveMotion`, `insufficientFeatures`,
  /// `relocalizing`) or another source's word for it.
  case limited(reason: String)
}

/// A camera frame: its intrinsics and where its image (and depth) are.
public struct CameraFrameSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The frame's number in its recording (its index in the video, for a video).
  public var index: Int
  /// Focal lengths and principal point, pixels, for an image of ``imageSize``; nil when not
  /// logged.
  public var intrinsics: FrameIntrinsics?
  /// Width and height of the image the intrinsics refer to, pixels; nil when unknown.
  public var imageSize: SIMD2<Int>?
  /// Where the image is.
  public var image: FrameImageSource?
  /// A depth image for this frame (16-bit PNG of millimetres), relative to the recording.
  public var depthPath: String?
  /// The depth's confidence image (8-bit PNG of 0 low, 1 medium, 2 high), relative to the
  /// recording.
  public var confidencePath: String?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, index: Int, intrinsics: FrameIntrinsics? = nil, imageSize: SIMD2<Int>? = nil,
    image: FrameImageSource? = nil, depthPath: String? = nil, confidencePath: String? = nil
  ) {
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

/// A frame's focal lengths and principal point, pixels, in ARScene's pixel convention (top-left
/// origin, pixel centres at +0.5, y down; ARKit's `intrinsics` are already so).
public struct FrameIntrinsics: Sendable, Equatable {
  public var fx: Double, fy: Double, cx: Double, cy: Double

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(fx: Double, fy: Double, cx: Double, cy: Double) {
    (self.fx, self.fy, self.cx, self.cy) = (fx, fy, cx, cy)
  }
}

/// Where a frame's image is: a file of its own, or a frame of a video.
public enum FrameImageSource: Sendable, Equatable {
  /// A PNG or JPEG file, relative to the recording.
  case file(String)
  /// Frame `frame` (0-based, in presentation order) of a video file relative to the recording.
  case video(path: String, frame: Int)
}

/// A GNSS fix, as `CLLocation` reports it.
public struct GPSFix: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Degrees, −90…90, north positive.
  public var latitude: Double
  /// Degrees, −180…180, east positive.
  public var longitude: Double
  /// Metres above the WGS84 ellipsoid, when the source gives it.
  public var height: Double?
  /// Metres above mean sea level (what `CLLocation.altitude` is), when the source gives it.
  public var altitudeMSL: Double?
  /// The radius of 68% confidence about the position, metres (`horizontalAccuracy`).
  public var horizontalAccuracy: Double
  /// 68% confidence of the height, metres; nil when invalid or not given.
  public var verticalAccuracy: Double?
  /// Direction of travel, degrees clockwise from true north; nil when invalid.
  public var courseDegrees: Double?
  /// Metres per second; nil when invalid.
  public var speed: Double?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, latitude: Double, longitude: Double, height: Double? = nil, altitudeMSL: Double? = nil,
    horizontalAccuracy: Double, verticalAccuracy: Double? = nil, courseDegrees: Double? = nil,
    speed: Double? = nil
  ) {
    self.time = time
    self.latitude = latitude
    self.longitude = longitude
    self.height = height
    self.altitudeMSL = altitudeMSL
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.courseDegrees = courseDegrees
    self.speed = speed
  }
}

/// A compass reading, as `CLHeading` reports it.
public struct HeadingSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Degrees clockwise from true north; nil when invalid (no location to correct with).
  public var trueHeadingDegrees: Double?
  /// Degrees clockwise from magnetic north.
  public var magneticHeadingDegrees: Double
  /// The largest likely error, degrees; nil when invalid.
  public var accuracyDegrees: Double?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, trueHeadingDegrees: Double?, magneticHeadingDegrees: Double, accuracyDegrees: Double?
  ) {
    self.time = time
    self.trueHeadingDegrees = trueHeadingDegrees
    self.magneticHeadingDegrees = magneticHeadingDegrees
    self.accuracyDegrees = accuracyDegrees
  }
}

/// A raw magnetometer reading in the device's frame (`CMMagnetometerData`).
public struct MagnetometerSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The field, microtesla, device axes.
  public var field: SIMD3<Double>

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, field: SIMD3<Double>) {
    self.time = time
    self.field = field
  }
}

/// A tap on the screen, in the pixels of the camera image it was made over.
public struct TapSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// Pixels, ARScene's convention (top-left origin, centres at +0.5).
  public var point: SIMD2<Double>
  /// What the tap should select, when the recording knows (a test's expectation).
  public var expected: String?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(time: Double, point: SIMD2<Double>, expected: String? = nil) {
    self.time = time
    self.point = point
    self.expected = expected
  }
}

/// Where the camera truly was, when the recording knows (a simulation, a surveyed track).
public struct GroundTruthSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The camera's true position: degrees, degrees, metres above the ellipsoid.
  public var latitude: Double, longitude: Double, height: Double
  /// The camera's true orientation in the local `gravityAndHeading` frame at its position
  /// (x east, y up, z south), ARKit camera convention.
  public var localFromCamera: Quaternion<Double>
  /// The true transform from the tracker's world to that local frame at the position of the
  /// recording's first truth record, when known: what a perfect session alignment finds.
  public var localFromWorld: RigidTransform<Double>?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, latitude: Double, longitude: Double, height: Double, localFromCamera: Quaternion<Double>,
    localFromWorld: RigidTransform<Double>? = nil
  ) {
    self.time = time
    self.latitude = latitude
    self.longitude = longitude
    self.height = height
    self.localFromCamera = localFromCamera
    self.localFromWorld = localFromWorld
  }
}
