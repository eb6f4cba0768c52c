extension Matrix4 {
  /// The 2×2 minors the determinant and the inverse share, by Laplace expansion along the first
  /// two and the last two columns. `s` pairs columns 0 and 1, `c` columns 2 and 3.
  @frozen @usableFromInline
  struct Minors {
    @usableFromInline var s0, s1, s2, s3, s4, s5: Scalar
    @usableFromInline var c0, c1, c2, c3, c4, c5: Scalar

    @inlinable @inline(__always)
    init(_ m: Matrix4) {
      let (a, b, c, d) = m.columns
      s0 = a.x * b.y - b.x * a.y
      s1 = a.x * b.z - b.x * a.z
      s2 = a.x * b.w - b.x * a.w
      s3 = a.y * b.z - b.y * a.z
      s4 = a.y * b.w - b.y * a.w
      s5 = a.z * b.w - b.z * a.w
      c5 = c.z * d.w - d.z * c.w
      c4 = c.y * d.w - d.y * c.w
      c3 = c.y * d.z - d.y * c.z
      c2 = c.x * d.w - d.x * c.w
      c1 = c.x * d.z - d.x * c.z
      c0 = c.x * d.y - d.x * c.y
    }

    @inlinable @inline(__always)
    var determinant: Scalar { s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0 }
  }

  /// The determinant.
  @inlinable
  public var determinant: Scalar { Minors(self).determinant }

  /// The inverse, or `nil` when the matrix is singular or nearly so.
  ///
  /// Affine matrices (last row `0 0 0 1`) go through ``affineInverse``: only their linear part
  /// can be singular, and a large translation (world coordinates far from the origin) must not
  /// make a regular matrix look singular. Other (projective) matrices are inverted by cofactors
  /// and are singular when `|det|` is at or below `Scalar.degeneracyTolerance` times the
  /// Hadamard bound `∏‖cᵢ‖`, or not finite.
  @inlinable
  public var inverse: Matrix4? {
    if isAffine { return affineInverse }
    let k = Minors(self)
    let det = k.determinant
    guard det.isFinite, Self.exceedsHadamardTolerance(det, columns) else { return nil }
    return adjugate(k) * (1 / det)
  }

  /// Whether `|det| > tolerance · ∏‖cᵢ‖`. Compared squared (no square root) where the squares
  /// are normal numbers; otherwise with two square roots, pairing the squared lengths so that
  /// every intermediate stays in the range of `det` itself (no early overflow in `Float`).
  @inlinable @inline(__always)
  static func exceedsHadamardTolerance(
    _ det: Scalar, _ c: (SIMD4<Scalar>, SIMD4<Scalar>, SIMD4<Scalar>, SIMD4<Scalar>)
  ) -> Bool {
    let tolerance = Scalar.degeneracyTolerance
    let p01 = c.0.lengthSquared * c.1.lengthSquared, p23 = c.2.lengthSquared * c.3.lengthSquared
    let squaredBound = tolerance * tolerance * p01 * p23, squared = det * det
    if squaredBound.isNormal, squared.isFinite { return squared > squaredBound }
    return abs(det) > tolerance * (p01.squareRoot() * p23.squareRoot())
  }

  /// The inverse without the singularity check: NaN or infinite entries when the matrix is
  /// singular. For hot loops over matrices known to be invertible.
  @inlinable
  public var uncheckedInverse: Matrix4 {
    let k = Minors(self)
    return adjugate(k) * (1 / k.determinant)
  }

  /// The adjugate (transposed cofactor matrix), so that `M⁻¹ = adj(M) / det(M)`. The minors are
  /// taken of `Mᵀ` (columns read as rows), whose inverse is `(M⁻¹)ᵀ`: each row computed below is
  /// therefore a column of the result.
  @inlinable @inline(__always)
  func adjugate(_ k: Minors) -> Matrix4 {
    let (a, b, c, d) = columns
    let r0 = SIMD4(
      b.y * k.c5 - b.z * k.c4 + b.w * k.c3, -a.y * k.c5 + a.z * k.c4 - a.w * k.c3,
      d.y * k.s5 - d.z * k.s4 + d.w * k.s3, -c.y * k.s5 + c.z * k.s4 - c.w * k.s3)
    let r1 = SIMD4(
      -b.x * k.c5 + b.z * k.c2 - b.w * k.c1, a.x * k.c5 - a.z * k.c2 + a.w * k.c1,
      -d.x * k.s5 + d.z * k.s2 - d.w * k.s1, c.x * k.s5 - c.z * k.s2 + c.w * k.s1)
    let r2 = SIMD4(
      b.x * k.c4 - b.y * k.c2 + b.w * k.c0, -a.x * k.c4 + a.y * k.c2 - a.w * k.c0,
      d.x * k.s4 - d.y * k.s2 + d.w * k.s0, -c.x * k.s4 + c.y * k.s2 - c.w * k.s0)
    let r3 = SIMD4(
      -b.x * k.c3 + b.y * k.c1 - b.z * k.c0, a.x * k.c3 - a.y * k.c1 + a.z * k.c0,
      -d.x * k.s3 + d.y * k.s1 - d.z * k.s0, c.x * k.s3 - c.y * k.s1 + c.z * k.s0)
    return Matrix4(r0, r1, r2, r3)
  }

  /// Element-wise scaling.
  @inlinable @inline(__always)
  public static func * (m: Matrix4, k: Scalar) -> Matrix4 {
    Matrix4(m.columns.0 * k, m.columns.1 * k, m.columns.2 * k, m.columns.3 * k)
  }

  /// The inverse of an affine matrix `[A t; 0 1]`, which is `[A⁻¹  −A⁻¹t; 0 1]`; `nil` when the
  /// matrix is not affine or `A` is singular (see ``Matrix3/inverse``).
  @inlinable
  public var affineInverse: Matrix4? {
    guard isAffine, let a = linear.inverse else { return nil }
    return Matrix4(linear: a, translation: -(a * translation))
  }
}
