import RealModule

/// A dense Levenberg–Marquardt least-squares solver: minimises `½‖r(x)‖²` over parameters `x`.
///
/// Each step solves the damped normal equations `(JᵀJ + λ·D)·δ = −Jᵀr` with `D = diag(JᵀJ)`
/// (Marquardt's scaling, so the result does not depend on the parameters' units) by Cholesky,
/// and adapts `λ` by the gain ratio of actual to predicted decrease (Nielsen's rule, as in
/// Madsen, Nielsen & Tingleff, "Methods for non-linear least squares problems", 2004).
///
/// Meant for the small problems of pose refinement and calibration (a handful to a few dozen
/// parameters, up to thousands of residuals).
public struct LevenbergMarquardt<Scalar: ARScalar>: Sendable {
  /// Stop when the gradient's largest entry `‖Jᵀr‖∞` falls to this.
  public var gradientTolerance: Scalar
  /// Stop when a step changes the parameters by at most this times their size (plus this).
  public var stepTolerance: Scalar
  /// Stop after this many iterations (accepted or rejected steps).
  public var maxIterations: Int
  /// The damping of the first step, relative to the largest diagonal entry of `JᵀJ`.
  public var initialDamping: Scalar

  /// A solver with tolerances suited to `Double` pose problems.
  public init(
    gradientTolerance: Scalar = Scalar.ulpOfOne * 16, stepTolerance: Scalar = Scalar.ulpOfOne * 16,
    maxIterations: Int = 200, initialDamping: Scalar = 1e-3
  ) {
    self.gradientTolerance = gradientTolerance
    self.stepTolerance = stepTolerance
    self.maxIterations = maxIterations
    self.initialDamping = initialDamping
  }

  /// Why the solver stopped.
  public enum Termination: Sendable, Equatable {
    /// The gradient vanished to the tolerance: a (local) minimum.
    case smallGradient
    /// The step became negligible relative to the parameters.
    case smallStep
    /// The residuals became exactly zero.
    case zeroResidual
    /// The iteration limit was reached.
    case maxIterations
    /// The normal equations could not be solved even with very large damping, or the residuals
    /// became non-finite.
    case numericalFailure
  }

  /// The outcome of a run.
  public struct Result: Sendable {
    /// The parameters at the minimum found.
    public var parameters: [Scalar]
    /// The residuals at ``parameters``.
    public var residuals: [Scalar]
    /// `½‖r‖²` at ``parameters``.
    public var cost: Scalar
    /// Iterations used.
    public var iterations: Int
    /// Why it stopped.
    public var termination: Termination
    /// `JᵀJ` at ``parameters``: the Gauss–Newton approximation of the Hessian, whose inverse times
    /// the residual variance is the parameters' covariance.
    public var normalMatrix: DenseMatrix<Scalar>
  }

  /// Minimises the residuals.
  ///
  /// - Parameters:
  ///   - initial: The starting parameters.
  ///   - residuals: `r(x)`; must return the same count for every `x`.
  ///   - jacobian: `J(x)`, `∂rᵢ/∂xⱼ` as a `residuals × parameters` matrix; when `nil`, central
  ///     differences are used.
  public func minimize(
    from initial: [Scalar],
    residuals: ([Scalar]) -> [Scalar],
    jacobian: (([Scalar]) -> DenseMatrix<Scalar>)? = nil
  ) -> Result {
    func jacobianOf(_ x: [Scalar]) -> DenseMatrix<Scalar> {
      jacobian?(x) ?? Self.centralDifferenceJacobian(residuals, at: x)
    }
    var x = initial
    var r = residuals(x)
    var cost = Self.halfSquaredNorm(r)
    var j = jacobianOf(x)
    var a = j.gram
    var g = j.transposedTimes(r)
    var lambda = initialDamping * ((0..<a.rows).map { a[$0, $0] }.max() ?? 1)
    var nu: Scalar = 2
    var termination = Termination.maxIterations
    var iteration = 0
    while iteration < maxIterations {
      if !cost.isFinite { termination = .numericalFailure; break }
      if cost == 0 { termination = .zeroResidual; break }
      if (g.map { abs($0) }.max() ?? 0) <= gradientTolerance { termination = .smallGradient; break }
      iteration += 1
      var damped = a
      for i in 0..<a.rows { damped[i, i] += lambda * Swift.max(a[i, i], Scalar.ulpOfOne) }
      guard let chol = Cholesky(damped) else {
        lambda *= nu
        nu *= 2
        if !lambda.isFinite { termination = .numericalFailure; break }
        continue
      }
      let step = chol.solve(g.map { -$0 })
      let stepNorm = step.reduce(0) { $0 + $1 * $1 }.squareRoot()
      let xNorm = x.reduce(0) { $0 + $1 * $1 }.squareRoot()
      if stepNorm <= stepTolerance * (xNorm + stepTolerance) { termination = .smallStep; break }
      let candidate = zip(x, step).map { $0 + $1 }
      let rCandidate = residuals(candidate)
      let costCandidate = Self.halfSquaredNorm(rCandidate)
      // Predicted decrease of the quadratic model: ½δᵀ(λDδ − g).
      var predicted: Scalar = 0
      for i in 0..<step.count {
        predicted += step[i] * (lambda * Swift.max(a[i, i], Scalar.ulpOfOne) * step[i] - g[i])
      }
      predicted /= 2
      let rho = predicted > 0 ? (cost - costCandidate) / predicted : -1
      if rho > 0 && costCandidate.isFinite {
        x = candidate
        r = rCandidate
        cost = costCandidate
        j = jacobianOf(x)
        a = j.gram
        g = j.transposedTimes(r)
        let f = 2 * rho - 1
        lambda *= Swift.max(1 / 3, 1 - f * f * f)
        nu = 2
      } else {
        lambda *= nu
        nu *= 2
        if !lambda.isFinite { termination = .numericalFailure; break }
      }
    }
    return Result(
      parameters: x, residuals: r, cost: cost, iterations: iteration, termination: termination,
      normalMatrix: a)
  }

  /// `½‖r‖²`.
  static func halfSquaredNorm(_ r: [Scalar]) -> Scalar { r.reduce(0) { $0 + $1 * $1 } / 2 }

  /// The Jacobian by central differences, with steps scaled to each parameter (`∛ε·max(1, |x|)`,
  /// which balances truncation against round-off).
  public static func centralDifferenceJacobian(
    _ residuals: ([Scalar]) -> [Scalar], at x: [Scalar]
  ) -> DenseMatrix<Scalar> {
    let r0 = residuals(x)
    var j = DenseMatrix<Scalar>(rows: r0.count, columns: x.count)
    let base = Scalar.root(Scalar.ulpOfOne, 3)
    for c in 0..<x.count {
      let h = base * Swift.max(1, abs(x[c]))
      var plus = x, minus = x
      plus[c] += h
      minus[c] -= h
      let rp = residuals(plus), rm = residuals(minus)
      for r in 0..<r0.count { j[r, c] = (rp[r] - rm[r]) / (2 * h) }
    }
    return j
  }
}
