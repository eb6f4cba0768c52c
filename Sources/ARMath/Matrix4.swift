/// A 4×4 matrix stored column-major, as GLM, OpenGL and glTF store it.
///
/// Homogeneous transforms and projections. Element access is `m[column, row]`, matching GLM's
/// `m[column][row]`; `columnMajorElements` is the order files use (DESIGN: 16 numbers,
/// column-major). Operations assume finite entries; inputs from outside go through
/// ``init(validatingColumnMajor:)``.
@frozen
public struct Matrix4<Scalar: ARScalar>: Hashable, Sendable {
  /// The four columns.
  public var columns: (SIMD4<Scalar>, SIMD4<Scalar>, SIMD4<Scalar>, SIMD4<Scalar>)

  /// A matrix from its four columns.
  @inlinable @inline(__always)
  public init(_ c0: SIMD4<Scalar>, _ c1: SIMD4<Scalar>, _ c2: SIMD4<Scalar>, _ c3: SIMD4<Scalar>) {
    columns = (c0, c1, c2, c3)
  }

  /// A matrix from its four rows (for writing matrices in code as they read on paper).
  /// The affine transform followed by a translation by `t`: `translation(t) * self` for an
  /// affine matrix, computed as one addition to the translation column.
  @inlinable
  public func translated(by t: SIMD3<Scalar>) -> Matrix4 {
    var m = self
    m.columns.3 += SIMD4(t, 0)
    return m
  }

  /// The same matrix in another precision (each element converted, rounding to nearest).
  @inlinable
  public init<Other: ARScalar>(_ other: Matrix4<Other>) {
    self.init(
      SIMD4<Scalar>(other.columns.0), SIMD4<Scalar>(other.columns.1), SIMD4<Scalar>(other.columns.2),
      SIMD4<Scalar>(other.columns.3))
  }

  /// The matrix with these rows (as written on paper; stored column-major).
  @inlinable
  public init(rows r0: SIMD4<Scalar>, _ r1: SIMD4<Scalar>, _ r2: SIMD4<Scalar>, _ r3: SIMD4<Scalar>) {
    self.init(
      SIMD4(r0.x, r1.x, r2.x, r3.x), SIMD4(r0.y, r1.y, r2.y, r3.y),
      SIMD4(r0.z, r1.z, r2.z, r3.z), SIMD4(r0.w, r1.w, r2.w, r3.w))
  }

  /// The diagonal matrix with `diagonal` on its diagonal.
  @inlinable
  public init(diagonal d: SIMD4<Scalar>) {
    self.init(SIMD4(d.x, 0, 0, 0), SIMD4(0, d.y, 0, 0), SIMD4(0, 0, d.z, 0), SIMD4(0, 0, 0, d.w))
  }

  /// The affine matrix `[linear t; 0 1]`: `linear` applied first, then the translation `t`.
  @inlinable
  public init(linear: Matrix3<Scalar>, translation t: SIMD3<Scalar>) {
    self.init(
      linear.columns.0.homogeneous(0), linear.columns.1.homogeneous(0),
      linear.columns.2.homogeneous(0), t.homogeneous(1))
  }

  /// The identity matrix.
  @inlinable public static var identity: Matrix4 { Matrix4(diagonal: SIMD4(repeating: 1)) }

  /// A translation by `t`.
  @inlinable
  public static func translation(_ t: SIMD3<Scalar>) -> Matrix4 {
    Matrix4(linear: .identity, translation: t)
  }

  /// A scaling by `s` along the axes.
  @inlinable
  public static func scale(_ s: SIMD3<Scalar>) -> Matrix4 { Matrix4(diagonal: s.homogeneous(1)) }

  /// The element in `column`, `row` (both 0…3).
  @inlinable
  public subscript(column: Int, row: Int) -> Scalar {
    get { self[column: column][row] }
    set { self[column: column][row] = newValue }
  }

  /// Column `index` (0…3).
  @inlinable
  public subscript(column index: Int) -> SIMD4<Scalar> {
    get {
      switch index {
      case 0: return columns.0
      case 1: return columns.1
      case 2: return columns.2
      case 3: return columns.3
      default: preconditionFailure("Matrix4 column \(index) out of 0…3")
      }
    }
    set {
      switch index {
      case 0: columns.0 = newValue
      case 1: columns.1 = newValue
      case 2: columns.2 = newValue
      case 3: columns.3 = newValue
      default: preconditionFailure("Matrix4 column \(index) out of 0…3")
      }
    }
  }

  /// Row `index` (0…3).
  @inlinable
  public func row(_ index: Int) -> SIMD4<Scalar> {
    SIMD4(columns.0[index], columns.1[index], columns.2[index], columns.3[index])
  }

  /// The upper-left 3×3 block: the linear part of an affine transform.
  @inlinable
  public var linear: Matrix3<Scalar> { Matrix3(columns.0.xyz, columns.1.xyz, columns.2.xyz) }

  /// The translation part of an affine transform (the last column's first three entries).
  @inlinable
  public var translation: SIMD3<Scalar> { columns.3.xyz }

  /// The sixteen elements in column-major order, the order of files and GLM.
  @inlinable
  public var columnMajorElements: [Scalar] {
    var out: [Scalar] = []
    out.reserveCapacity(16)
    for c in 0..<4 { for r in 0..<4 { out.append(self[c, r]) } }
    return out
  }

  /// A matrix from sixteen column-major numbers, checked: exactly sixteen, all finite.
  ///
  /// - Throws: ``MatrixInputError`` naming the bad count or the first non-finite index.
  public init<C: Collection>(validatingColumnMajor elements: C) throws(MatrixInputError)
  where C.Element == Scalar {
    let e = Array(elements)
    try MatrixInputError.check(e, count: 16)
    self.init(
      SIMD4(e[0], e[1], e[2], e[3]), SIMD4(e[4], e[5], e[6], e[7]),
      SIMD4(e[8], e[9], e[10], e[11]), SIMD4(e[12], e[13], e[14], e[15]))
  }

  /// The transpose.
  @inlinable
  public var transposed: Matrix4 { Matrix4(rows: columns.0, columns.1, columns.2, columns.3) }

  /// Whether every element is finite.
  @inlinable
  public var isFinite: Bool {
    columns.0.isFinite && columns.1.isFinite && columns.2.isFinite && columns.3.isFinite
  }

  /// Whether the last row is `(0, 0, 0, 1)` exactly, i.e. the matrix is affine.
  @inlinable
  public var isAffine: Bool {
    // Scalar compares: a SIMD `==` on a gathered row costs more than the whole test.
    columns.0.w == 0 && columns.1.w == 0 && columns.2.w == 0 && columns.3.w == 1
  }

  /// The matrix–vector product `self · v`.
  @inlinable @inline(__always)
  public static func * (m: Matrix4, v: SIMD4<Scalar>) -> SIMD4<Scalar> {
    m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z + m.columns.3 * v.w
  }

  /// The matrix product `a · b` (apply `b` first, then `a`).
  @inlinable
  public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
    Matrix4(a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
  }

  /// Applies the transform to the point `p` (w = 1) without a perspective divide; exact for
  /// affine matrices.
  @inlinable @inline(__always)
  public func transformPoint(_ p: SIMD3<Scalar>) -> SIMD3<Scalar> {
    (columns.0 * p.x + columns.1 * p.y + columns.2 * p.z + columns.3).xyz
  }

  /// Applies the linear part to the direction `d` (w = 0): translation does not move directions.
  @inlinable @inline(__always)
  public func transformDirection(_ d: SIMD3<Scalar>) -> SIMD3<Scalar> {
    (columns.0 * d.x + columns.1 * d.y + columns.2 * d.z).xyz
  }

  @inlinable
  public static func == (a: Matrix4, b: Matrix4) -> Bool {
    a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
      && a.columns.3 == b.columns.3
  }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(columns.0)
    hasher.combine(columns.1)
    hasher.combine(columns.2)
    hasher.combine(columns.3)
  }
}
