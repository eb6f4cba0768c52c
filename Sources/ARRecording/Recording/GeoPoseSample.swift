import ARMath

/// The platform's own geo pose of the camera at a frame, with what the platform claims of it:
/// ARCore Geospatial's `GeospatialPose` (position, orientation and their 68% accuracies), ARKit
/// geo tracking's state and accuracy level. `arscene validate` audits the claims against the
/// truth; `arscene simulate` writes them with a chosen optimism.
public struct GeoPoseSample: Sendable, Equatable {
  /// Seconds.
  public var time: Double
  /// The camera's position: degrees, degrees, metres above the WGS84 ellipsoid.
  public var latitude: Double, longitude: Double, height: Double
  /// The camera's orientation in the local frame at its position (x east, y up, z south), ARKit
  /// camera convention; nil when the platform gives none.
  public var localFromCamera: Quaternion<Double>?
  /// The radius around the position holding the truth with 68% probability, metres.
  public var horizontalAccuracy: Double?
  /// The half-interval about the height holding the truth with 68% probability, metres.
  public var verticalAccuracy: Double?
  /// The half-interval about the heading holding the truth with 68% probability, degrees.
  public var yawAccuracyDegrees: Double?
  /// ARKit's geo tracking state (`not_available`, `initializing`, `localizing`, `localized`),
  /// as the platform named it; nil for ARCore.
  public var trackingState: String?
  /// ARKit's geo tracking accuracy (`undetermined`, `low`, `medium`, `high`); nil for ARCore.
  public var accuracyLevel: String?

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    time: Double, latitude: Double, longitude: Double, height: Double,
    localFromCamera: Quaternion<Double>? = nil,
    horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil, yawAccuracyDegrees: Double? = nil,
    trackingState: String? = nil, accuracyLevel: String? = nil
  ) {
    self.time = time
    (self.latitude, self.longitude, self.height) = (latitude, longitude, height)
    self.localFromCamera = localFromCamera
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.yawAccuracyDegrees = yawAccuracyDegrees
    self.trackingState = trackingState
    self.accuracyLevel = accuracyLevel
  }
}
