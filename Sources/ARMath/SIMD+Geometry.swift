/// Euclidean vector operations on the standard library's SIMD vectors.
///
/// ARScene never imports Apple's `simd` module (it does not exist on Linux); these extensions give
/// `SIMD2`, `SIMD3` and `SIMD4` of `Float` or `Double` the operations graphics code expects. Units
/// are whatever the vector's are (metres for positions in the world frame).
extension SIMD where Scalar: ARScalar {
  /// The dot product `Σ selfᵢ·otherᵢ`.
  @inlinable @inline(__always)
  public func dot(_ other: Self) -> Scalar { (self * other).sum() }

  /// The squared Euclidean length; cheaper than ``length`` when only comparing.
  @inlinable @inline(__always)
  public var lengthSquared: Scalar { dot(self) }

  /// The Euclidean length.
  @inlinable @inline(__always)
  public var length: Scalar { lengthSquared.squareRoot() }

  /// The Euclidean distance to `other`.
  @inlinable
  public func distance(to other: Self) -> Scalar { (self - other).length }

  /// This vector scaled to unit length.
  ///
  /// The caller guarantees a non-zero, finite vector (the zero vector gives NaNs). Use
  /// ``normalizedOrNil()`` where the input comes from outside.
  @inlinable @inline(__always)
  public func normalized() -> Self { self / length }

  /// This vector scaled to unit length, or `nil` when it is zero, too short to normalise
  /// reliably (length ≤ `Scalar.degeneracyTolerance`), or not finite.
  @inlinable
  public func normalizedOrNil() -> Self? {
    let length = self.length
    guard length.isFinite, length > Scalar.degeneracyTolerance else { return nil }
    return self / length
  }

  /// Linear interpolation `self + t·(other − self)`: `self` at `t = 0`, `other` at `t = 1`.
  @inlinable
  public func lerp(to other: Self, _ t: Scalar) -> Self { self + (other - self) * t }

  /// Whether every component is finite (neither NaN nor infinite).
  @inlinable
  public var isFinite: Bool {
    for i in indices where !self[i].isFinite { return false }
    return true
  }
}

extension SIMD3 where Scalar: ARScalar {
  /// The right-handed cross product `self × other`.
  @inlinable @inline(__always)
  public func cross(_ other: Self) -> Self {
    let a = SIMD3(y, z, x) * SIMD3(other.z, other.x, other.y)
    let b = SIMD3(z, x, y) * SIMD3(other.y, other.z, other.x)
    return a - b
  }

  /// A unit vector perpendicular to this (non-zero) vector; which one is unspecified but
  /// deterministic and continuous away from the axis swaps.
  @inlinable
  public func anyPerpendicular() -> Self {
    // Cross with the coordinate axis least aligned with self, so the result is never tiny.
    let a = SIMD3(Swift.abs(x), Swift.abs(y), Swift.abs(z))
    let axis: Self = a.x <= a.y && a.x <= a.z ? [1, 0, 0] : (a.y <= a.z ? [0, 1, 0] : [0, 0, 1])
    return cross(axis).normalized()
  }
}

extension SIMD4 where Scalar: ARScalar {
  /// The first three components; for a homogeneous point `(x, y, z, w)` with `w = 1`, the point.
  @inlinable @inline(__always)
  public var xyz: SIMD3<Scalar> { SIMD3(x, y, z) }
}

extension SIMD3 where Scalar: ARScalar {
  /// The homogeneous vector `(x, y, z, w)`: `w = 1` for a point, `w = 0` for a direction.
  @inlinable @inline(__always)
  public func homogeneous(_ w: Scalar) -> SIMD4<Scalar> { SIMD4(x, y, z, w) }
}

extension Array where Element == SIMD3<Double> {
  /// Whether every coordinate of every vector is finite (neither NaN nor infinite): one pass
  /// with no branch a vector, each coordinate times zero summed (an infinite or NaN coordinate
  /// makes its sum NaN), four vectors at a time. What a mesh's points, an extent or an
  /// accessor's rows are checked with before they are used.
  @inlinable
  public var allFinite: Bool {
    withUnsafeBufferPointer { vectors in
      var (a, b, c, d) = (SIMD3<Double>.zero, SIMD3<Double>.zero, SIMD3<Double>.zero, SIMD3<Double>.zero)
      var k = 0
      while k &+ 4 <= vectors.count {
        a += vectors[k] * 0
        b += vectors[k &+ 1] * 0
        c += vectors[k &+ 2] * 0
        d += vectors[k &+ 3] * 0
        k &+= 4
      }
      while k < vectors.count {
        a += vectors[k] * 0
        k &+= 1
      }
      return a + b + c + d == .zero
    }
  }
}
