import RealModule

// Projection and view matrices with GLM's default conventions (right-handed eye space looking
// down −Z, OpenGL clip space with depth in [−1, 1]): the `…RH_NO` functions of GLM 0.9.9.

extension Matrix4 {
  /// A perspective projection, equal to GLM's `glm::perspective` (`perspectiveRH_NO`).
  ///
  /// - Parameters:
  ///   - verticalFieldOfView: The full vertical angle of view, in (0, π).
  ///   - aspect: Width over height of the viewport.
  ///   - near: Distance to the near plane in metres, > 0; maps to NDC depth −1.
  ///   - far: Distance to the far plane in metres, > `near`; maps to NDC depth +1.
  @inlinable
  public static func perspective(
    verticalFieldOfView: Angle<Scalar>, aspect: Scalar, near: Scalar, far: Scalar
  ) -> Matrix4 {
    let tanHalf = Scalar.tan(verticalFieldOfView.radians / 2)
    var m = Matrix4(diagonal: .zero)
    m[0, 0] = 1 / (aspect * tanHalf)
    m[1, 1] = 1 / tanHalf
    m[2, 2] = -(far + near) / (far - near)
    m[2, 3] = -1
    m[3, 2] = -(2 * far * near) / (far - near)
    return m
  }

  /// An orthographic projection of the box `[left, right] × [bottom, top] × [−near, −far]` in eye
  /// space onto NDC, equal to GLM's `glm::ortho` (`orthoRH_NO`). All bounds in metres.
  @inlinable
  public static func orthographic(
    left: Scalar, right: Scalar, bottom: Scalar, top: Scalar, near: Scalar, far: Scalar
  ) -> Matrix4 {
    var m = Matrix4.identity
    m[0, 0] = 2 / (right - left)
    m[1, 1] = 2 / (top - bottom)
    m[2, 2] = -2 / (far - near)
    m[3, 0] = -(right + left) / (right - left)
    m[3, 1] = -(top + bottom) / (top - bottom)
    m[3, 2] = -(far + near) / (far - near)
    return m
  }

  /// The view matrix (`cameraFromWorld`) of a camera at `eye` looking at `target`, with `up`
  /// towards the image's top, equal to GLM's `glm::lookAt` (`lookAtRH`). The camera follows the
  /// ARKit/OpenGL convention: x right, y up, looking down −Z.
  ///
  /// The caller guarantees `eye ≠ target` and `up` not parallel to the view direction; see
  /// ``RigidTransform/lookAt(eye:target:up:)`` for a checked version.
  @inlinable
  public static func lookAt(eye: SIMD3<Scalar>, target: SIMD3<Scalar>, up: SIMD3<Scalar>) -> Matrix4 {
    let f = (target - eye).normalized()
    let s = f.cross(up).normalized()
    let u = s.cross(f)
    return Matrix4(
      rows: s.homogeneous(-s.dot(eye)), u.homogeneous(-u.dot(eye)), (-f).homogeneous(f.dot(eye)),
      SIMD4(0, 0, 0, 1))
  }

  /// Applies a projective transform to the point `p` (w = 1) and divides by the resulting w.
  @inlinable @inline(__always)
  public func projectPoint(_ p: SIMD3<Scalar>) -> SIMD3<Scalar> {
    let h = self * p.homogeneous(1)
    return h.xyz / h.w
  }
}

extension RigidTransform {
  /// The pose (`worldFromCamera`) of a camera at `eye` looking at `target`, ARKit/OpenGL
  /// convention (x right, y up, looking down −Z), with `up` as close to the camera's +Y as it
  /// can be. The inverse of ``Matrix4/lookAt(eye:target:up:)``.
  ///
  /// - Returns: `nil` when `eye == target`, `up` is zero, or `up` is parallel to the view
  ///   direction.
  @inlinable
  public static func lookAt(eye: SIMD3<Scalar>, target: SIMD3<Scalar>, up: SIMD3<Scalar>)
    -> RigidTransform?
  {
    guard let rotation = Quaternion.lookRotation(forward: target - eye, up: up) else { return nil }
    return RigidTransform(rotation: rotation, translation: eye)
  }
}
