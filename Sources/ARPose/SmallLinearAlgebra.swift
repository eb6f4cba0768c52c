/// Dense solvers for the fixed small systems of pose estimation (6×6 normal equations, 8×8
/// homographies), written out for `Double` so the hot paths do not go through generic matrix
/// types (which, across modules, ran unspecialised: 40× slower in the marker benchmark).
enum SmallLinearAlgebra {
  /// Adds two equations to the normal equations of a least-squares system: `AᵀA += aᵀa + bᵀb`
  /// (`n×n`, row-major) and `Aᵀy += aᵀ·aValue + bᵀ·bValue`, where the rows `a` and `b` are
  /// tuples of `n` doubles (kept in registers by the caller, read here by scalar index).
  @inline(__always)
  static func addRows<Row>(
    _ a: Row, _ aValue: Double, _ b: Row, _ bValue: Double, n: Int, normal: UnsafeMutablePointer<Double>,
    rhs: UnsafeMutablePointer<Double>
  ) {
    withUnsafeBytes(of: a) { aBytes in
      withUnsafeBytes(of: b) { bBytes in
        let a = aBytes.bindMemory(to: Double.self), b = bBytes.bindMemory(to: Double.self)
        for i in 0..<n {
          rhs[i] += a[i] * aValue + b[i] * bValue
          for j in 0..<n { normal[i * n + j] += a[i] * a[j] + b[i] * b[j] }
        }
      }
    }
  }

  /// Solves `A·x = b` for a square row-major `n×n` matrix by Gaussian elimination with partial
  /// pivoting; nil when a pivot is below `1e-13` of the matrix's largest entry (singular).
  static func solve(_ a: [Double], _ b: [Double], n: Int) -> [Double]? {
    var m = a, x = b
    let scale = a.reduce(0) { max($0, abs($1)) }
    guard scale > 0 else { return nil }
    for column in 0..<n {
      var pivot = column
      for row in (column + 1)..<n where abs(m[row * n + column]) > abs(m[pivot * n + column]) { pivot = row }
      guard abs(m[pivot * n + column]) > 1e-13 * scale else { return nil }
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

  /// Overwrites the lower triangle of a symmetric positive-definite row-major `n×n` matrix with
  /// its Cholesky factor L (A = L·Lᵀ); false if it is not positive definite.
  static func choleskyFactor(_ a: UnsafeMutablePointer<Double>, n: Int) -> Bool {
    for i in 0..<n {
      for j in 0...i {
        var s = a[i * n + j]
        for k in 0..<j { s -= a[i * n + k] * a[j * n + k] }
        if i == j {
          guard s > 0 else { return false }
          a[i * n + i] = s.squareRoot()
        } else {
          a[i * n + j] = s / a[j * n + j]
        }
      }
    }
    return true
  }

  /// Solves `A·x = b` in place (`b` becomes `x`) for a symmetric positive-definite row-major
  /// `n×n` matrix, overwriting `a` with its Cholesky factor; false if `a` is not positive definite.
  static func choleskySolve(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, n: Int)
    -> Bool
  {
    guard choleskyFactor(a, n: n) else { return false }
    for i in 0..<n {
      var s = b[i]
      for k in 0..<i { s -= a[i * n + k] * b[k] }
      b[i] = s / a[i * n + i]
    }
    for i in stride(from: n - 1, through: 0, by: -1) {
      var s = b[i]
      for k in (i + 1)..<n { s -= a[k * n + i] * b[k] }
      b[i] = s / a[i * n + i]
    }
    return true
  }

  /// The inverse of a symmetric positive-definite `n×n` matrix (row-major) by Cholesky; nil if
  /// it is not positive definite.
  static func inverseSPD(_ a: [Double], n: Int) -> [Double]? {
    var l = a
    let factored = l.withUnsafeMutableBufferPointer { choleskyFactor($0.baseAddress!, n: n) }
    guard factored else { return nil }
    var inverse = [Double](repeating: 0, count: n * n)
    for column in 0..<n {
      // Solve L·y = e, then Lᵀ·x = y.
      var y = [Double](repeating: 0, count: n)
      for i in 0..<n {
        var s = i == column ? 1.0 : 0.0
        for k in 0..<i { s -= l[i * n + k] * y[k] }
        y[i] = s / l[i * n + i]
      }
      for i in stride(from: n - 1, through: 0, by: -1) {
        var s = y[i]
        for k in (i + 1)..<n { s -= l[k * n + i] * inverse[k * n + column] }
        inverse[i * n + column] = s / l[i * n + i]
      }
    }
    return inverse
  }

}
