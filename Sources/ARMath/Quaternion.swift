import RealModule

/// A quaternion `x·i + y·j + z·k + w`, used as a rotation when of unit length.
///
/// Stored and serialised in `[x, y, z, w]` order (glTF, ARKit). A unit quaternion `q` rotates a
/// vector `v` as `q·v·q*`, which is the rotation matrix ``matrix``; `q` and `−q` are the same
/// rotation. Rotations are active and right-handed: positive angles turn counter-clockwise when
/// looking down the axis towards the origin.
@frozen
public struct Quaternion<Scalar: ARScalar>: Hashable, Sendable {
  /// The components `(x, y, z, w)`: imaginary part in `xyz`, real part in `w`.
  public var vector: SIMD4<Scalar>

  /// A quaternion from its components in `(x, y, z, w)` order.
  @inlinable @inline(__always)
  public init(vector: SIMD4<Scalar>) { self.vector = vector }

  /// A quaternion from its imaginary part `(x, y, z)` and real part `w`.
  @inlinable @inline(__always)
  public init(imaginary: SIMD3<Scalar>, real: Scalar) { vector = imaginary.homogeneous(real) }

  /// The identity rotation `(0, 0, 0, 1)`.
  @inlinable public static var identity: Quaternion { Quaternion(vector: SIMD4(0, 0, 0, 1)) }

  /// The imaginary (vector) part `(x, y, z)`.
  @inlinable public var imaginary: SIMD3<Scalar> { vector.xyz }

  /// The real (scalar) part `w`.
  @inlinable public var real: Scalar { vector.w }

  /// The rotation by `angle` about `axis` (right-handed).
  ///
  /// - Parameters:
  ///   - angle: The rotation angle.
  ///   - axis: The rotation axis; normalised here, so any non-zero length works. A zero axis
  ///     gives NaNs: validate outside input with ``init(angle:validatingAxis:)``.
  @inlinable
  public init(angle: Angle<Scalar>, axis: SIMD3<Scalar>) {
    let half = angle.radians / 2
    self.init(imaginary: axis.normalized() * Scalar.sin(half), real: Scalar.cos(half))
  }

  /// The rotation by `angle` about `axis`, or `nil` when the axis is zero or not finite.
  @inlinable
  public init?(angle: Angle<Scalar>, validatingAxis axis: SIMD3<Scalar>) {
    guard angle.radians.isFinite, let unit = axis.normalizedOrNil() else { return nil }
    self.init(angle: angle, axis: unit)
  }

  /// The rotation angle in [0, π] of a unit quaternion.
  @inlinable
  public var angle: Angle<Scalar> {
    Angle(radians: 2 * Scalar.atan2(y: imaginary.length, x: abs(real)))
  }

  /// The rotation axis of a unit quaternion, or `nil` for (near-)identity rotations.
  @inlinable
  public var axis: SIMD3<Scalar>? {
    (real < 0 ? -imaginary : imaginary).normalizedOrNil()
  }

  /// The squared norm `x² + y² + z² + w²`.
  @inlinable public var normSquared: Scalar { vector.lengthSquared }

  /// The norm; 1 for a rotation.
  @inlinable public var norm: Scalar { vector.length }

  /// This quaternion scaled to unit norm (the caller guarantees a non-zero quaternion).
  @inlinable public func normalized() -> Quaternion { Quaternion(vector: vector.normalized()) }

  /// This quaternion scaled to unit norm, or `nil` when it is zero or not finite.
  @inlinable public func normalizedOrNil() -> Quaternion? {
    vector.normalizedOrNil().map(Quaternion.init(vector:))
  }

  /// The conjugate `(−x, −y, −z, w)`: the inverse rotation for a unit quaternion.
  @inlinable public var conjugate: Quaternion { Quaternion(imaginary: -imaginary, real: real) }

  /// The multiplicative inverse `q* / |q|²`; for unit quaternions use ``conjugate``.
  @inlinable public var inverse: Quaternion { Quaternion(vector: conjugate.vector / normSquared) }

  /// The Hamilton product `a·b`: as rotations, `b` first, then `a`.
  @inlinable
  public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    let av = a.imaginary, bv = b.imaginary
    return Quaternion(
      imaginary: bv * a.real + av * b.real + av.cross(bv),
      real: a.real * b.real - av.dot(bv))
  }

  /// Rotates the vector `v` by this unit quaternion.
  @inlinable
  public func act(_ v: SIMD3<Scalar>) -> SIMD3<Scalar> {
    // v' = v + 2w(q×v) + 2q×(q×v), the expansion of q·v·q* for |q| = 1.
    let q = imaginary
    let t = q.cross(v) * 2
    return v + t * real + q.cross(t)
  }

  /// The dot product of the components; `|a·b|` near 1 means nearly the same rotation.
  @inlinable public func dot(_ other: Quaternion) -> Scalar { vector.dot(other.vector) }

  /// The angle between the two rotations, in [0, π].
  @inlinable
  public func angle(to other: Quaternion) -> Angle<Scalar> { (conjugate * other).angle }

  /// Whether every component is finite.
  @inlinable public var isFinite: Bool { vector.isFinite }
}
