/// A proper rigid motion (rotation then translation), `p ↦ R·p + t`, with no scale.
///
/// Named by what it maps, `parent_from_child` (DESIGN): a `worldFromCamera` transform takes
/// points in the camera frame to the world frame, and `a_from_b * b_from_c = a_from_c`.
/// Translation in metres.
@frozen
public struct RigidTransform<Scalar: ARScalar>: Hashable, Sendable {
  /// The rotation (a unit quaternion).
  public var rotation: Quaternion<Scalar>
  /// The translation, applied after the rotation: the child frame's origin in the parent frame.
  public var translation: SIMD3<Scalar>

  /// A transform from a unit quaternion and a translation. The caller guarantees `rotation` is
  /// of unit length; see ``init(validatingMatrix:tolerance:)`` for outside input.
  @inlinable
  public init(rotation: Quaternion<Scalar> = .identity, translation: SIMD3<Scalar> = .zero) {
    self.rotation = rotation
    self.translation = translation
  }

  /// The same transform in another precision (e.g. a scene's `Double` camera pose narrowed to the
  /// renderer's `Float`).
  @inlinable
  public init<Other: ARScalar>(_ other: RigidTransform<Other>) {
    self.init(
      rotation: Quaternion(vector: SIMD4<Scalar>(other.rotation.vector)),
      translation: SIMD3<Scalar>(other.translation))
  }

  /// A transform from a rotation matrix (re-orthonormalised through the quaternion) and a
  /// translation.
  @inlinable
  public init(rotationMatrix rotation: Matrix3<Scalar>, translation: SIMD3<Scalar>) {
    self.init(rotation: Quaternion(rotationMatrix: rotation), translation: translation)
  }

  /// The identity transform.
  @inlinable public static var identity: RigidTransform { RigidTransform() }

  /// Applies the transform to a point: `R·p + t`.
  @inlinable @inline(__always)
  public func transformPoint(_ p: SIMD3<Scalar>) -> SIMD3<Scalar> { rotation.act(p) + translation }

  /// Applies the rotation only, for directions and normals: `R·d`.
  @inlinable @inline(__always)
  public func transformDirection(_ d: SIMD3<Scalar>) -> SIMD3<Scalar> { rotation.act(d) }

  /// Composition: `(a * b).transformPoint(p) == a.transformPoint(b.transformPoint(p))`, so
  /// `aFromB * bFromC` is `aFromC`.
  @inlinable
  public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
    RigidTransform(
      rotation: (a.rotation * b.rotation).normalized(),
      translation: a.rotation.act(b.translation) + a.translation)
  }

  /// The inverse motion, `p ↦ Rᵀ·(p − t)`: `bFromA` from `aFromB`.
  @inlinable
  public var inverse: RigidTransform {
    let r = rotation.conjugate
    return RigidTransform(rotation: r, translation: -r.act(translation))
  }

  /// The 4×4 homogeneous matrix `[R t; 0 1]`.
  @inlinable
  public var matrix: Matrix4<Scalar> { Matrix4(linear: rotation.matrix, translation: translation) }

  /// A rigid transform from a 4×4 matrix that must be one: affine, finite, with an orthonormal
  /// right-handed upper 3×3 (to `tolerance` in every entry of `RᵀR − I` and in `det R − 1`).
  ///
  /// - Throws: ``RigidTransformError`` saying which requirement fails.
  public init(validatingMatrix m: Matrix4<Scalar>, tolerance: Scalar = 1e-4) throws(RigidTransformError) {
    guard m.isFinite else { throw .notFinite }
    guard m.isAffine else { throw .notAffine }
    let r = m.linear
    let gram = r.transposed * r - .identity
    let worst = [gram.columns.0, gram.columns.1, gram.columns.2].map { Swift.max($0.max(), -$0.min()) }.max()!
    guard worst <= tolerance else { throw .notOrthonormal(deviation: Double(worst)) }
    guard r.determinant > 0 else { throw .reflection }
    self.init(rotationMatrix: r, translation: m.translation)
  }

  /// Whether the rotation and translation are finite.
  @inlinable public var isFinite: Bool { rotation.isFinite && translation.isFinite }
}
