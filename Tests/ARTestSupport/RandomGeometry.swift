import ARMath
import RealModule

/// Random geometry for seeded property tests.
extension SplitMix64 {
  /// A scalar uniform in `range`.
  public mutating func scalar<S: ARScalar>(_ range: ClosedRange<S> = -1...1) -> S
  where S.RawSignificand: FixedWidthInteger {
    S.random(in: range, using: &self)
  }

  /// A vector with components uniform in `range`.
  public mutating func vector3<S: ARScalar>(_ range: ClosedRange<S> = -1...1) -> SIMD3<S>
  where S.RawSignificand: FixedWidthInteger {
    SIMD3(scalar(range), scalar(range), scalar(range))
  }

  /// A unit vector, uniform on the sphere.
  public mutating func unitVector3<S: ARScalar>() -> SIMD3<S> where S.RawSignificand: FixedWidthInteger {
    while true {
      let v: SIMD3<S> = vector3()
      let l = v.lengthSquared
      if l > 0.01 && l <= 1 { return v / l.squareRoot() }
    }
  }

  /// A rotation, uniform over SO(3) (a normalised 4-D Gaussian-ish sample by rejection), with
  /// `w ≥ 0`.
  public mutating func rotation<S: ARScalar>() -> Quaternion<S> where S.RawSignificand: FixedWidthInteger {
    while true {
      let v = SIMD4<S>(scalar(), scalar(), scalar(), scalar())
      let l = v.lengthSquared
      if l > 0.01 && l <= 1 {
        let q = v / l.squareRoot()
        return Quaternion(vector: q.w < 0 ? -q : q)
      }
    }
  }

  /// A rigid transform with a uniform rotation and a translation uniform in `±extent` metres.
  public mutating func rigidTransform<S: ARScalar>(extent: S = 10) -> RigidTransform<S>
  where S.RawSignificand: FixedWidthInteger {
    RigidTransform(rotation: rotation(), translation: vector3(-extent...extent))
  }

  /// A general 4×4 matrix with entries uniform in `range`.
  public mutating func matrix4<S: ARScalar>(_ range: ClosedRange<S> = -1...1) -> Matrix4<S>
  where S.RawSignificand: FixedWidthInteger {
    Matrix4(
      SIMD4(scalar(range), scalar(range), scalar(range), scalar(range)),
      SIMD4(scalar(range), scalar(range), scalar(range), scalar(range)),
      SIMD4(scalar(range), scalar(range), scalar(range), scalar(range)),
      SIMD4(scalar(range), scalar(range), scalar(range), scalar(range)))
  }

  /// A 4×4 matrix with condition number at most about 5: random entries in ±1 plus 2·I, which is
  /// strictly diagonally dominant in expectation. Inverses of these are compared tightly.
  public mutating func wellConditionedMatrix4<S: ARScalar>() -> Matrix4<S>
  where S.RawSignificand: FixedWidthInteger {
    var m: Matrix4<S> = matrix4(-0.5...0.5)
    for i in 0..<4 { m[i, i] += 3 * (scalar(0...1) < 0.5 ? -1 : 1) }
    return m
  }
}
