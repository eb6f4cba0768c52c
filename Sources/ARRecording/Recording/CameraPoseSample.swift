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
