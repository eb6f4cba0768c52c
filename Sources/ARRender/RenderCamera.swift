import ARMath

/// The camera a frame is rendered with: pinhole intrinsics, a pose in the ARKit convention and
/// near/far planes in metres.
///
/// The pose is `Double`, so that a camera in projected or Earth-centred coordinates keeps its
/// millimetres: the renderer composes each draw's transforms in `Double`, large translations
/// subtracted first, and shades in a frame shifted to the camera when it is far from the
/// world's origin, where `Float` is precise.
public struct RenderCamera: Sendable {
  /// Focal lengths, principal point and image size (pixels, top-left origin, centres at +0.5).
  public var intrinsics: CameraIntrinsics<Float>
  /// Camera-frame (ARKit convention: x right, y up, looking down −Z) to world, metres.
  public var worldFromCamera: RigidTransform<Double>
  /// Near-plane distance in metres (> 0). Geometry closer than this is clipped away.
  public var near: Float
  /// Far-plane distance in metres (> near).
  public var far: Float

  /// The near plane when none is given, metres.
  public static let defaultNear: Float = 0.05
  /// The far plane when none is given, metres.
  public static let defaultFar: Float = 1000

  /// A camera with these fields.
  public init(
    intrinsics: CameraIntrinsics<Float>, worldFromCamera: RigidTransform<Double>, near: Float = defaultNear,
    far: Float = defaultFar
  ) {
    self.intrinsics = intrinsics
    self.worldFromCamera = worldFromCamera
    self.near = near
    self.far = far
  }

  /// A scene's camera, its intrinsics narrowed to the renderer's `Float` (its pose stays
  /// `Double`).
  ///
  /// - Parameters:
  ///   - camera: Intrinsics in output pixels and `worldFromCamera` (ARKit convention, metres).
  ///   - near: The near clip plane, metres.
  ///   - far: The far clip plane, metres.
  public init(
    _ camera: PinholeCamera<Double>, near: Double = Double(defaultNear), far: Double = Double(defaultFar)
  ) {
    self.init(
      intrinsics: CameraIntrinsics<Float>(camera.intrinsics), worldFromCamera: camera.worldFromCamera,
      near: Float(near), far: Float(far))
  }

  /// World to OpenGL clip space: the view matrix, then the projection of the intrinsics (in
  /// `Float`: precise for a camera within a few kilometres of the world's origin).
  public var clipFromWorld: Matrix4<Float> {
    intrinsics.projectionMatrix(near: near, far: far) * Matrix4<Float>(worldFromCamera.inverse.matrix)
  }

  /// The point the renderer shades relative to: zero for a camera within 1,024 m of the
  /// world's origin (where `Float` world coordinates keep 0.1 mm), else the camera's position,
  /// so that `Float` offsets from it keep better than that around the camera.
  var shadingOrigin: SIMD3<Double> {
    let eye = worldFromCamera.translation
    return max(abs(eye.x), abs(eye.y), abs(eye.z)) < 1024 ? .zero : eye
  }

  /// Clip space from the world shifted so that the eye is at its origin, in `Double`: the view's
  /// rotation, then the projection, with reversed depth.
  ///
  /// OpenGL's depth, `z/w = (f+n)/(f−n) − 2fn/((f−n)·d)` at distance `d`, crowds every distance
  /// beyond a few near planes against 1, where a `Float` has 2⁻²⁴ steps: with ARKit's near plane
  /// of 1 mm, surfaces 300 m away a few metres apart tie. The renderer instead uses
  /// `z/w = −near/d` (`z = −near`, `w = d`): −1 on the near plane, rising to 0 at infinity, so
  /// every depth keeps `Float`'s full relative precision (a 300 m surface resolves 20 µm) and
  /// smaller is still nearer. The far plane becomes `z ≤ farLimit · w`.
  var clipFromEyeCentred: Matrix4<Double> {
    var projection = CameraIntrinsics<Double>(intrinsics).projectionMatrix(
      near: Double(near), far: Double(far))
    projection[2, 2] = 0
    projection[3, 2] = -Double(near)
    return projection * Matrix4(linear: worldFromCamera.rotation.conjugate.matrix, translation: .zero)
  }

  /// The far plane in the renderer's reversed depth: `−near/far`.
  var farLimit: Float { Float(-Double(near) / Double(far)) }

  /// Checks near and far planes: finite, `0 < near < far`.
  ///
  /// - Throws: ``RenderError/invalidSettings(_:)`` otherwise.
  public static func validateClipPlanes(near: Float, far: Float) throws(RenderError) {
    guard near > 0, far > near, near.isFinite, far.isFinite else {
      throw .invalidSettings("near and far must be finite with 0 < near < far, got \(near) and \(far)")
    }
  }
}
