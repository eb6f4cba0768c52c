import ARMath

/// The camera a frame is rendered with: pinhole intrinsics, a pose in the ARKit convention and
/// near/far planes in metres.
public struct RenderCamera: Sendable {
  /// Focal lengths, principal point and image size (pixels, top-left origin, centres at +0.5).
  public var intrinsics: CameraIntrinsics<Float>
  /// Camera-frame (ARKit convention: x right, y up, looking down −Z) to world.
  public var worldFromCamera: RigidTransform<Float>
  /// Near-plane distance in metres (> 0). Geometry closer than this is clipped away.
  public var near: Float
  /// Far-plane distance in metres (> near).
  public var far: Float

  /// The near plane when none is given, metres.
  public static let defaultNear: Float = 0.05
  /// The far plane when none is given, metres.
  public static let defaultFar: Float = 1000

  public init(
    intrinsics: CameraIntrinsics<Float>, worldFromCamera: RigidTransform<Float>, near: Float = defaultNear,
    far: Float = defaultFar
  ) {
    self.intrinsics = intrinsics
    self.worldFromCamera = worldFromCamera
    self.near = near
    self.far = far
  }

  /// A camera narrowed to the renderer's `Float`: the one place a scene's `Double` camera loses
  /// precision, at render time.
  ///
  /// - Parameters:
  ///   - camera: Intrinsics in output pixels and `worldFromCamera` (ARKit convention, metres).
  ///   - near: The near clip plane, metres.
  ///   - far: The far clip plane, metres.
  public init(
    _ camera: PinholeCamera<Double>, near: Double = Double(defaultNear), far: Double = Double(defaultFar)
  ) {
    self.init(
      intrinsics: CameraIntrinsics<Float>(camera.intrinsics),
      worldFromCamera: RigidTransform<Float>(camera.worldFromCamera), near: Float(near), far: Float(far))
  }

  /// World to OpenGL clip space: the view matrix, then the projection of the intrinsics.
  public var clipFromWorld: Matrix4<Float> {
    intrinsics.projectionMatrix(near: near, far: far) * worldFromCamera.inverse.matrix
  }

  /// Checks near and far planes: finite, `0 < near < far`.
  ///
  /// - Throws: ``RenderError/invalidSettings(_:)`` otherwise.
  public static func validateClipPlanes(near: Float, far: Float) throws(RenderError) {
    guard near > 0, far > near, near.isFinite, far.isFinite else {
      throw .invalidSettings("near and far must be finite with 0 < near < far, got \(near) and \(far)")
    }
  }
}
