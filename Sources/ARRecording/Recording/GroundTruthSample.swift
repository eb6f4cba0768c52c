import ARMath

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
