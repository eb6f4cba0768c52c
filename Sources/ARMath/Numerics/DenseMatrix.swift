/// A small dense matrix of any size, row-major, for the least-squares solvers (Jacobians,
/// normal equations). Not for hot loops: the fixed-size ``Matrix3`` and ``Matrix4`` are.
public struct DenseMatrix<Scalar: ARScalar>: Hashable, Sendable {
  /// Number of rows.
  public let rows: Int
  /// Number of columns.
  public let columns: Int
  /// The elements, row by row: element `(r, c)` is at `r * columns + c`.
  public var elements: [Scalar]

  /// A matrix of the given shape filled with `value`.
  @inlinable
  public init(rows: Int, columns: Int, repeating value: Scalar = 0) {
    precondition(rows >= 0 && columns >= 0, "DenseMatrix shape must be non-negative")
    self.rows = rows
    self.columns = columns
    elements = Array(repeating: value, count: rows * columns)
  }

  /// A matrix from nested rows, which must all have the same length.
  @inlinable
  public init(_ nestedRows: [[Scalar]]) {
    let width = nestedRows.first?.count ?? 0
    precondition(nestedRows.allSatisfy { $0.count == width }, "DenseMatrix rows differ in length")
    rows = nestedRows.count
    columns = width
    elements = nestedRows.flatMap { $0 }
  }

  /// The `n × n` identity.
  @inlinable
  public static func identity(_ n: Int) -> DenseMatrix {
    var m = DenseMatrix(rows: n, columns: n)
    for i in 0..<n { m[i, i] = 1 }
    return m
  }

  /// The element in row `r`, column `c`.
  @inlinable
  public subscript(r: Int, c: Int) -> Scalar {
    get { elements[r * columns + c] }
    set { elements[r * columns + c] = newValue }
  }

  /// The transpose.
  @inlinable
  public var transposed: DenseMatrix {
    var t = DenseMatrix(rows: columns, columns: rows)
    for r in 0..<rows { for c in 0..<columns { t[c, r] = self[r, c] } }
    return t
  }

  /// The matrix product.
  @inlinable
  public static func * (a: DenseMatrix, b: DenseMatrix) -> DenseMatrix {
    precondition(
      a.columns == b.rows, "DenseMatrix product of \(a.rows)×\(a.columns) and \(b.rows)×\(b.columns)")
    var p = DenseMatrix(rows: a.rows, columns: b.columns)
    for r in 0..<a.rows {
      for k in 0..<a.columns {
        let ark = a[r, k]
        if ark == 0 { continue }
        for c in 0..<b.columns { p[r, c] += ark * b[k, c] }
      }
    }
    return p
  }

  /// The matrix–vector product.
  @inlinable
  public static func * (a: DenseMatrix, x: [Scalar]) -> [Scalar] {
    precondition(a.columns == x.count, "DenseMatrix of \(a.columns) columns times a vector of \(x.count)")
    return (0..<a.rows).map { r in
      var s: Scalar = 0
      for c in 0..<a.columns { s += a[r, c] * x[c] }
      return s
    }
  }

  /// `Aᵀ·A`, the Gram matrix of the columns (normal equations), computed without forming `Aᵀ`.
  @inlinable
  public var gram: DenseMatrix {
    var g = DenseMatrix(rows: columns, columns: columns)
    for r in 0..<rows {
      for i in 0..<columns {
        let ari = self[r, i]
        if ari == 0 { continue }
        for j in i..<columns { g[i, j] += ari * self[r, j] }
      }
    }
    for i in 0..<columns { for j in 0..<i { g[i, j] = g[j, i] } }
    return g
  }

  /// `Aᵀ·x`.
  @inlinable
  public func transposedTimes(_ x: [Scalar]) -> [Scalar] {
    precondition(rows == x.count, "DenseMatrix of \(rows) rows transposed times a vector of \(x.count)")
    var out = [Scalar](repeating: 0, count: columns)
    for r in 0..<rows where x[r] != 0 { for c in 0..<columns { out[c] += self[r, c] * x[r] } }
    return out
  }

  /// The solution `x` of `A·x = b` for a square `A`, by Gaussian elimination with partial
  /// pivoting; nil when a pivot falls below `relativePivotTolerance` times the largest entry
  /// (the system is singular to that precision: collinear points, a repeated point).
  @inlinable
  public func solve(_ b: [Scalar], relativePivotTolerance: Scalar = 1e-13) -> [Scalar]? {
    precondition(
      rows == columns && b.count == rows, "solve needs a square matrix and a matching right-hand side")
    let n = rows
    var m = elements, x = b
    let scale = elements.reduce(0) { Swift.max($0, abs($1)) }
    guard scale > 0 else { return nil }
    for column in 0..<n {
      var pivot = column
      for row in (column + 1)..<n where abs(m[row * n + column]) > abs(m[pivot * n + column]) { pivot = row }
      guard abs(m[pivot * n + column]) > relativePivotTolerance * scale else { return nil }
      if pivot != column {
        for k in 0..<n { m.swapAt(column * n + k, pivot * n + k) }
        x.swapAt(column, pivot)
      }
      let inverse = 1 / m[column * n + column]
      for row in (column + 1)..<n {
        let f = m[row * n + column] * inverse
        if f == 0 { continue }
        for k in column..<n { m[row * n + k] -= f * m[column * n + k] }
        x[row] -= f * x[column]
      }
    }
    for row in stride(from: n - 1, through: 0, by: -1) {
      var s = x[row]
      for k in (row + 1)..<n { s -= m[row * n + k] * x[k] }
      x[row] = s / m[row * n + row]
    }
    return x
  }
}
