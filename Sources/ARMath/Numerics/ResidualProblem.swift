import RealModule

/// The array interface's problem: residual and Jacobian closures, parameters a vector.
@usableFromInline
struct ResidualProblem<Scalar: ARScalar>: NormalEquationsProblem {
  @usableFromInline let parameterCount: Int
  @usableFromInline let residuals: ([Scalar]) -> [Scalar]
  @usableFromInline let jacobian: ([Scalar]) -> DenseMatrix<Scalar>

  @inlinable
  init(
    count: Int, residuals: @escaping ([Scalar]) -> [Scalar],
    jacobian: @escaping ([Scalar]) -> DenseMatrix<Scalar>
  ) {
    parameterCount = count
    self.residuals = residuals
    self.jacobian = jacobian
  }

  @inlinable
  func evaluate(
    _ x: [Scalar], normal: UnsafeMutablePointer<Scalar>, gradient: UnsafeMutablePointer<Scalar>
  ) -> Scalar {
    let r = residuals(x)
    let cost = r.reduce(0) { $0 + $1 * $1 } / 2
    guard cost.isFinite else { return cost }
    let j = jacobian(x)
    let gram = j.gram, jtr = j.transposedTimes(r)
    for i in 0..<(parameterCount * parameterCount) { normal[i] = gram.elements[i] }
    for i in 0..<parameterCount { gradient[i] = jtr[i] }
    return cost
  }

  @inlinable
  func moved(_ x: [Scalar], by step: UnsafePointer<Scalar>) -> [Scalar] {
    x.indices.map { x[$0] + step[$0] }
  }

  @inlinable
  func magnitude(_ x: [Scalar]) -> Scalar { x.reduce(0) { $0 + $1 * $1 }.squareRoot() }
}
