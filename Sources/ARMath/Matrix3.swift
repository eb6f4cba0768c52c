/// A 3×3 matrix stored column-major, as GLM and glTF store it.
///
/// Used for rotations, camera intrinsics (`K`), covariances and the small solvers. Element access
/// is `m[column, row]`, matching GLM's `m[column][row]`. Operations assume finite entries; inputs
/// from outside go through ``init(validatingColumnMajor:)``.
@frozen
public struct Matrix3<Scalar: ARScalar>: Hashable, Sendable {
  /// The three columns.
  public var columns: (SIMD3<Scalar>, SIMD3<Scalar>, SIMD3<Scalar>)

  /// A matrix from its three columns.
  @inlinable @inline(__always)
  public init(_ c0: SIMD3<Scalar>, _ c1: SIMD3<Scalar>, _ c2: SIMD3<Scalar>) {
    columns = (c0, c1, c2)
  }

  /// A matrix from its three rows (handy for writing matrices in code as they read on paper).
  @inlinable
  public init(rows r0: SIMD3<Scalar>, _ r1: SIMD3<Scalar>, _ r2: SIMD3<Scalar>) {
    self.init(SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
  }

  /// The diagonal matrix with `diagonal` on its diagonal.
  @inlinable
  public init(diagonal: SIMD3<Scalar>) {
    self.init(SIMD3(diagonal.x, 0, 0), SIMD3(0, diagonal.y, 0), SIMD3(0, 0, diagonal.z))
  }

  /// The identity matrix.
  @inlinable public static var identity: Matrix3 { Matrix3(diagonal: SIMD3(repeating: 1)) }

  /// The zero matrix.
  @inlinable public static var zero: Matrix3 { Matrix3(.zero, .zero, .zero) }

  /// The element in `column`, `row` (both 0…2).
  @inlinable
  public subscript(column: Int, row: Int) -> Scalar {
    get { self[column: column][row] }
    set { self[column: column][row] = newValue }
  }

  /// Column `index` (0…2).
  @inlinable
  public subscript(column index: Int) -> SIMD3<Scalar> {
    get {
      switch index {
      case 0: return columns.0
      case 1: return columns.1
      case 2: return columns.2
      default: preconditionFailure("Matrix3 column \(index) out of 0…2")
      }
    }
    set {
      switch index {
      case 0: columns.0 = newValue
      case 1: columns.1 = newValue
      case 2: columns.2 = newValue
      default: preconditionFailure("Matrix3 column \(index) out of 0…2")
      }
    }
  }

  /// Row `index` (0…2).
  @inlinable
  public func row(_ index: Int) -> SIMD3<Scalar> {
    SIMD3(columns.0[index], columns.1[index], columns.2[index])
  }

  /// The nine elements in column-major order.
  @inlinable
  public var columnMajorElements: [Scalar] {
    [
      columns.0.x, columns.0.y, columns.0.z, columns.1.x, columns.1.y, columns.1.z,
      columns.2.x, columns.2.y, columns.2.z,
    ]
  }

  /// A matrix from nine column-major numbers, checked: exactly nine, all finite.
  ///
  /// - Throws: ``MatrixInputError`` naming the bad count or the first non-finite index.
  public init<C: Collection>(validatingColumnMajor elements: C) throws(MatrixInputError)
  where C.Element == Scalar {
    let e = Array(elements)
    try MatrixInputError.check(e, count: 9)
    self.init(SIMD3(e[0], e[1], e[2]), SIMD3(e[3], e[4], e[5]), SIMD3(e[6], e[7], e[8]))
  }

  /// The transpose.
  @inlinable
  public var transposed: Matrix3 { Matrix3(rows: columns.0, columns.1, columns.2) }

  /// The determinant, as the scalar triple product `c0 · (c1 × c2)`.
  @inlinable
  public var determinant: Scalar { columns.0.dot(columns.1.cross(columns.2)) }

  /// The trace (sum of the diagonal).
  @inlinable
  public var trace: Scalar { columns.0.x + columns.1.y + columns.2.z }

  /// The inverse, or `nil` when the matrix is singular or nearly so: `|det|` at or below
  /// `Scalar.degeneracyTolerance` times the Hadamard bound `‖c0‖‖c1‖‖c2‖`, or not finite.
  @inlinable
  public var inverse: Matrix3? {
    // The rows of the inverse are the pairwise cross products of the columns, over det.
    let r0 = columns.1.cross(columns.2)
    let r1 = columns.2.cross(columns.0)
    let r2 = columns.0.cross(columns.1)
    let det = columns.0.dot(r0)
    let bound = columns.0.length * columns.1.length * columns.2.length
    guard det.isFinite, abs(det) > Scalar.degeneracyTolerance * bound else { return nil }
    let s = 1 / det
    return Matrix3(rows: r0 * s, r1 * s, r2 * s)
  }

  /// The matrix–vector product `self · v`.
  @inlinable @inline(__always)
  public static func * (m: Matrix3, v: SIMD3<Scalar>) -> SIMD3<Scalar> {
    m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z
  }

  /// The matrix product `a · b`.
  @inlinable
  public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(a * b.columns.0, a * b.columns.1, a * b.columns.2)
  }

  /// Element-wise scaling.
  @inlinable
  public static func * (m: Matrix3, k: Scalar) -> Matrix3 {
    Matrix3(m.columns.0 * k, m.columns.1 * k, m.columns.2 * k)
  }

  /// Element-wise sum.
  @inlinable
  public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(a.columns.0 + b.columns.0, a.columns.1 + b.columns.1, a.columns.2 + b.columns.2)
  }

  /// Element-wise difference.
  @inlinable
  public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(a.columns.0 - b.columns.0, a.columns.1 - b.columns.1, a.columns.2 - b.columns.2)
  }

  /// The outer product `a · bᵀ`.
  @inlinable
  public static func outer(_ a: SIMD3<Scalar>, _ b: SIMD3<Scalar>) -> Matrix3 {
    Matrix3(a * b.x, a * b.y, a * b.z)
  }

  /// The skew-symmetric matrix `[v]×` with `[v]× · w = v × w`.
  @inlinable
  public static func crossProduct(_ v: SIMD3<Scalar>) -> Matrix3 {
    Matrix3(SIMD3(0, v.z, -v.y), SIMD3(-v.z, 0, v.x), SIMD3(v.y, -v.x, 0))
  }

  /// The Frobenius norm `√Σ mᵢⱼ²`.
  @inlinable
  public var frobeniusNorm: Scalar {
    (columns.0.lengthSquared + columns.1.lengthSquared + columns.2.lengthSquared).squareRoot()
  }

  /// Whether every element is finite.
  @inlinable
  public var isFinite: Bool { columns.0.isFinite && columns.1.isFinite && columns.2.isFinite }

  @inlinable
  public static func == (a: Matrix3, b: Matrix3) -> Bool {
    a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
  }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(columns.0)
    hasher.combine(columns.1)
    hasher.combine(columns.2)
  }
}
