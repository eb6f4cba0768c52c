import ARMath

/// A control observation with what it needs to constrain the session's alignment: the camera's
/// session pose and intrinsics at the observation's frame, and the point's place in the site's
/// geographic world (x east, y up, z south at the site's origin, metres).
public struct ControlSighting: Sendable, Equatable {
  /// The observation: which point, where in the image, from which line.
  public var observation: ControlObservation
  /// The camera's pose in the session (ARKit convention: looks down −Z), metres.
  public var sessionFromCamera: RigidTransform<Double>
  /// The frame's intrinsics (pixels, ARScene's convention).
  public var intrinsics: Pinhole<Double>
  /// The surveyed point (or marker corner), geographic world metres.
  public var world: SIMD3<Double>
  /// The survey's 1σ per axis, metres.
  public var worldSigma: Double

  /// A sighting; nothing is validated.
  public init(
    observation: ControlObservation, sessionFromCamera: RigidTransform<Double>, intrinsics: Pinhole<Double>,
    world: SIMD3<Double>, worldSigma: Double
  ) {
    self.observation = observation
    self.sessionFromCamera = sessionFromCamera
    self.intrinsics = intrinsics
    self.world = world
    self.worldSigma = worldSigma
  }

  /// The ray through the observed pixel: the camera's centre and a unit direction, in the
  /// session frame.
  var sessionRay: (origin: SIMD3<Double>, direction: SIMD3<Double>) {
    let k = intrinsics
    let p = observation.pixel
    let d = SIMD3((p.x - k.cx) / k.fx, -(p.y - k.cy) / k.fy, -1)
    return (sessionFromCamera.translation, sessionFromCamera.rotation.act(d / d.length))
  }
}
