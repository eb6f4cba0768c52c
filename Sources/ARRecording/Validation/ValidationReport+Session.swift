extension ValidationReport {
  /// The session the recording holds, from its camera poses (the session frame, metres): how
  /// long, how far the camera went, and over what extent. JSON `{"duration_s", "distance_m",
  /// "extent_m"}`.
  public struct SessionSummary: Codable, Sendable, Equatable {
    /// Seconds from the first pose to the last.
    public var durationS: Double
    /// Metres along the camera's track, pose to pose.
    public var distanceM: Double
    /// The track's extent along the session's x, y (up) and z axes, metres.
    public var extentM: [Double]
    /// The image size the anchors' jitter was measured at, and where it came from; nil when no
    /// frame had intrinsics.
    public var frameSize: FrameSize? = nil

    enum CodingKeys: String, CodingKey {
      case durationS = "duration_s", distanceM = "distance_m", extentM = "extent_m", frameSize = "frame_size"
    }
  }

  /// The size of the frames' images, pixels, and whether the recording stated it. JSON
  /// `{"width", "height", "from"}`.
  public struct FrameSize: Codable, Sendable, Equatable {
    /// Where a frame size came from.
    public enum Origin: String, Codable, Sendable {
      /// The frames (or the user's `--image-size`) stated it.
      case frames
      /// Not stated: taken as twice the principal point, which phones put within a few pixels
      /// of the image's centre.
      case principalPoint = "principal_point"
    }
    /// Width and height, pixels.
    public var width: Int, height: Int
    /// Where they came from.
    public var from: Origin
  }
}

/// Accumulates a ``ValidationReport/SessionSummary`` pose by pose.
struct SessionExtent {
  private var first: Double?, last: Double?
  private var previous: SIMD3<Double>?
  private var distance = 0.0
  private var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)

  /// Takes the camera's position (session frame, metres) at `time`.
  mutating func take(_ position: SIMD3<Double>, at time: Double) {
    if first == nil { first = time }
    last = time
    if let previous { distance += (position - previous).length }
    previous = position
    (low, high) = (pointwiseMin(low, position), pointwiseMax(high, position))
  }

  /// The summary, or nil before any pose.
  var summary: ValidationReport.SessionSummary? {
    guard let first, let last else { return nil }
    let extent = high - low
    return ValidationReport.SessionSummary(
      durationS: last - first, distanceM: distance, extentM: [extent.x, extent.y, extent.z])
  }
}
