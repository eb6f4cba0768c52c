/// The two camera-frame conventions ARScene speaks, and the one conversion between them.
///
/// - ``arkit``: ARKit, OpenGL, GLM: x right, y up, the camera looks down −Z.
/// - ``opencv``: OpenCV, photogrammetry: x right, y down, the camera looks down +Z.
///
/// The frames share their origin and x axis; y and z flip. That flip is the rotation by π about
/// x, `diag(1, −1, −1)`, which is its own inverse. Nothing in ARScene flips implicitly: code that
/// crosses conventions calls ``convert(_:from:to:)`` or ``cameraFromCamera(from:to:)``.
public enum CameraConvention: String, Sendable, CaseIterable, Codable {
  /// x right, y up, looking down −Z (ARKit, OpenGL, GLM).
  case arkit
  /// x right, y down, looking down +Z (OpenCV).
  case opencv

  /// Re-expresses a point or direction given in a camera frame of convention `source` in the
  /// frame of convention `target` of the same camera.
  @inlinable
  public static func convert<Scalar: ARScalar>(
    _ v: SIMD3<Scalar>, from source: CameraConvention, to target: CameraConvention
  ) -> SIMD3<Scalar> {
    source == target ? v : SIMD3(v.x, -v.y, -v.z)
  }

  /// The rigid transform `targetCamera_from_sourceCamera`: identity or the flip.
  ///
  /// Compose it on the camera side of a pose: `worldFromCamera_cv = worldFromCamera_arkit *
  /// cameraFromCamera(from: .opencv, to: .arkit)`, and `cameraFromMarker_arkit =
  /// cameraFromCamera(from: .opencv, to: .arkit) * cameraFromMarker_cv`.
  @inlinable
  public static func cameraFromCamera<Scalar: ARScalar>(
    from source: CameraConvention, to target: CameraConvention
  ) -> RigidTransform<Scalar> {
    source == target
      ? .identity : RigidTransform(rotation: Quaternion(vector: SIMD4(1, 0, 0, 0)), translation: .zero)
  }
}
