import RealModule

extension Quaternion {
  /// The rotation matrix of this unit quaternion (column-major, acting on column vectors).
  @inlinable
  public var matrix: Matrix3<Scalar> {
    let (x, y, z, w) = (vector.x, vector.y, vector.z, vector.w)
    let (xx, yy, zz) = (x * x, y * y, z * z)
    let (xy, xz, yz) = (x * y, x * z, y * z)
    let (wx, wy, wz) = (w * x, w * y, w * z)
    return Matrix3(
      SIMD3(1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)),
      SIMD3(2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)),
      SIMD3(2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)))
  }

  /// The unit quaternion of a rotation matrix, with `w ≥ 0`.
  ///
  /// Robust for every rotation, including 180° turns: it extracts the largest of `|w|, |x|, |y|,
  /// |z|` first from the diagonal (Shepperd's method), so it never divides by a small number. The
  /// result is normalised, so a matrix slightly off orthonormal (accumulated round-off) gives the
  /// nearby rotation; a matrix far from a rotation gives an unspecified quaternion.
  @inlinable
  public init(rotationMatrix m: Matrix3<Scalar>) {
    let (m00, m11, m22) = (m[0, 0], m[1, 1], m[2, 2])
    let trace = m00 + m11 + m22
    var q: SIMD4<Scalar>
    if trace >= m00 && trace >= m11 && trace >= m22 {
      let w4 = (1 + trace).squareRoot() * 2  // 4w
      q = SIMD4((m[1, 2] - m[2, 1]) / w4, (m[2, 0] - m[0, 2]) / w4, (m[0, 1] - m[1, 0]) / w4, w4 / 4)
    } else if m00 >= m11 && m00 >= m22 {
      let x4 = (1 + m00 - m11 - m22).squareRoot() * 2
      q = SIMD4(x4 / 4, (m[1, 0] + m[0, 1]) / x4, (m[2, 0] + m[0, 2]) / x4, (m[1, 2] - m[2, 1]) / x4)
    } else if m11 >= m22 {
      let y4 = (1 + m11 - m00 - m22).squareRoot() * 2
      q = SIMD4((m[1, 0] + m[0, 1]) / y4, y4 / 4, (m[2, 1] + m[1, 2]) / y4, (m[2, 0] - m[0, 2]) / y4)
    } else {
      let z4 = (1 + m22 - m00 - m11).squareRoot() * 2
      q = SIMD4((m[2, 0] + m[0, 2]) / z4, (m[2, 1] + m[1, 2]) / z4, z4 / 4, (m[0, 1] - m[1, 0]) / z4)
    }
    if q.w < 0 { q = -q }
    self.init(vector: q.normalized())
  }

  /// The rotation that turns the camera-style frame to look along `forward` with `up` as near
  /// to its +Y as possible, in the ARKit/OpenGL convention: the rotated −Z axis is `forward`.
  ///
  /// Matches GLM's `quatLookAtRH(direction, up)`. Returns `nil` when `forward` is zero or
  /// parallel to `up`.
  @inlinable
  public static func lookRotation(forward: SIMD3<Scalar>, up: SIMD3<Scalar>) -> Quaternion? {
    guard let back = (-forward).normalizedOrNil(), let right = up.cross(back).normalizedOrNil()
    else { return nil }
    let trueUp = back.cross(right)
    return Quaternion(rotationMatrix: Matrix3(right, trueUp, back))
  }
}

extension Quaternion {
  /// Spherical linear interpolation along the shorter arc, from `self` at `t = 0` to `other` at
  /// `t = 1`, for unit quaternions.
  ///
  /// Constant angular velocity. Falls back to normalised linear interpolation when the two are
  /// within about 0.06° of each other, where the sine ratio loses precision.
  @inlinable
  public func slerp(to other: Quaternion, _ t: Scalar) -> Quaternion {
    var cosTheta = dot(other)
    var target = other.vector
    if cosTheta < 0 {  // q and −q are the same rotation: take the short way round.
      cosTheta = -cosTheta
      target = -target
    }
    if cosTheta > 1 - Scalar.ulpOfOne.squareRoot() * 8 {
      return Quaternion(vector: vector.lerp(to: target, t).normalized())
    }
    // sin((1−t)θ) = sinθ·cos(tθ) − cosθ·sin(tθ) saves one sine over the textbook form, and
    // sinθ = √((1−c)(1+c)) needs none; 1 − c is exact here (Sterbenz), so sinθ is accurate.
    let theta = Scalar.acos(cosTheta)
    let sinTheta = ((1 - cosTheta) * (1 + cosTheta)).squareRoot()
    let (sinT, cosT) = (Scalar.sin(t * theta), Scalar.cos(t * theta))
    let b = sinT / sinTheta
    let a = cosT - cosTheta * b
    return Quaternion(vector: vector * a + target * b)
  }
}
