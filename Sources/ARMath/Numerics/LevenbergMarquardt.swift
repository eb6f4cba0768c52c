import RealModule

/// A dense Levenberg–Marquardt least-squares solver: minimises `½‖r(x)‖²` over parameters `x`.
///
/// Each step solves the damped normal equations `(JᵀJ + λ·D)·δ = −Jᵀr` with `D = diag(JᵀJ)`
/// (Marquardt's scaling, so `λ` has no unit and the result does not depend on the parameters'
/// units) by Cholesky, and adapts `λ` by the gain ratio of actual to predicted decrease
/// (Nielsen's rule, as in Madsen, Nielsen & Tingleff, "Methods for non-linear least squares
/// problems", 2004).
///
/// Meant for the small problems of pose refinement and calibration (a handful to a few dozen
/// parameters, up to thousands of residuals). Two interfaces share the one algorithm: residual
/// and Jacobian closures on arrays (``minimize(from:residuals:jacobian:)``), and a
/// ``NormalEquationsProblem`` that accumulates its own normal equations without allocating
/// (``minimize(_:from:)``), for the hot loops of pose estimation.
public struct LevenbergMarquardt<Scalar: ARScalar>: Sendable {
  /// Stop when the gradient's largest entry `‖Jᵀr‖∞` falls to this times `max(1, cost)`.
  public var gradientTolerance: Scalar
  /// Stop when a step changes the parameters by at most this times their size (plus this).
  public var stepTolerance: Scalar
  /// Stop when a step promises, or an accepted step achieves, a decrease of the cost of at
  /// most this times the cost (MINPACK's `ftol`); 0 never stops so.
  public var costTolerance: Scalar
  /// Stop when the cost falls to this: a fit exact to round-off, where further steps would
  /// only chase the last bits (0 stops at an exact zero only).
  public var costFloor: Scalar
  /// Stop after this many iterations (accepted or rejected steps).
  public var maxIterations: Int
  /// `λ` of the first step: the damping of each diagonal entry of `JᵀJ`, relative to it.
  public var initialDamping: Scalar

  /// A solver with tolerances suited to `Double` pose problems.
  @inlinable
  public init(
    gradientTolerance: Scalar = Scalar.ulpOfOne * 16, stepTolerance: Scalar = Scalar.ulpOfOne * 16,
    costTolerance: Scalar = 0, costFloor: Scalar = 0, maxIterations: Int = 200, initialDamping: Scalar = 1e-3
  ) {
    self.gradientTolerance = gradientTolerance
    self.stepTolerance = stepTolerance
    self.costTolerance = costTolerance
    self.costFloor = costFloor
    self.maxIterations = maxIterations
    self.initialDamping = initialDamping
  }

  /// Why the solver stopped.
  public enum Termination: Sendable, Equatable {
    /// The gradient vanished to the tolerance: a (local) minimum.
    case smallGradient
    /// The step became negligible relative to the parameters.
    case smallStep
    /// The cost stopped falling by more than ``LevenbergMarquardt/costTolerance`` of itself.
    case smallCostChange
    /// The residuals became zero, or the cost fell to ``LevenbergMarquardt/costFloor``.
    case zeroResidual
    /// The iteration limit was reached.
    case maxIterations
    /// The normal equations could not be solved even with very large damping, or the residuals
    /// became non-finite.
    case numericalFailure
  }

  /// The outcome of a run: of ``minimize(_:from:)`` on a ``NormalEquationsProblem``, or of
  /// ``minimize(from:residuals:jacobian:)`` (parameters as an array).
  public struct Solution<Parameters> {
    /// The parameters at the minimum found.
    public var parameters: Parameters
    /// `½‖r‖²` at ``parameters``.
    public var cost: Scalar
    /// Iterations used.
    public var iterations: Int
    /// Why it stopped.
    public var termination: Termination
    /// `JᵀJ` at ``parameters`` (`n×n`).
    public var normalMatrix: DenseMatrix<Scalar>

    @inlinable
    init(
      parameters: Parameters, cost: Scalar, iterations: Int, termination: Termination,
      normalMatrix: DenseMatrix<Scalar>
    ) {
      self.parameters = parameters
      self.cost = cost
      self.iterations = iterations
      self.termination = termination
      self.normalMatrix = normalMatrix
    }
  }

  /// Minimises the residuals.
  ///
  /// - Parameters:
  ///   - initial: The starting parameters.
  ///   - residuals: `r(x)`; must return the same count for every `x`.
  ///   - jacobian: `J(x)`, `∂rᵢ/∂xⱼ` as a `residuals × parameters` matrix; when `nil`, central
  ///     differences are used.
  @inlinable
  public func minimize(
    from initial: [Scalar],
    residuals: ([Scalar]) -> [Scalar],
    jacobian: (([Scalar]) -> DenseMatrix<Scalar>)? = nil
  ) -> Solution<[Scalar]> {
    withoutActuallyEscaping(residuals) { residuals in
      let problem = ResidualProblem(count: initial.count, residuals: residuals) { x in
        jacobian?(x) ?? Self.centralDifferenceJacobian(residuals, at: x)
      }
      return minimize(problem, from: initial)
    }
  }

  /// Minimises `problem`'s cost from `initial`, with its normal equations in one stack buffer.
  @inlinable
  public func minimize<Problem: NormalEquationsProblem>(
    _ problem: Problem, from initial: Problem.Parameters
  ) -> Solution<Problem.Parameters> where Problem.Scalar == Scalar {
    let n = problem.parameterCount
    return withUnsafeTemporaryAllocation(of: Scalar.self, capacity: 3 * n * n + 3 * n) { buffer in
      var normal = buffer.baseAddress!, trialNormal = normal + n * n
      let damped = normal + 2 * n * n
      var gradient = normal + 3 * n * n, trialGradient = gradient + n
      let step = gradient + 2 * n
      func evaluate(
        _ x: Problem.Parameters, _ a: UnsafeMutablePointer<Scalar>, _ g: UnsafeMutablePointer<Scalar>
      ) -> Scalar {
        a.update(repeating: 0, count: n * n)
        g.update(repeating: 0, count: n)
        return problem.evaluate(x, normal: a, gradient: g)
      }
      var x = initial
      var cost = evaluate(x, normal, gradient)
      var lambda = initialDamping
      var nu: Scalar = 2
      var termination = Termination.maxIterations
      var iteration = 0
      while iteration < maxIterations {
        if !cost.isFinite { termination = .numericalFailure; break }
        if cost <= costFloor { termination = .zeroResidual; break }
        var largestGradient: Scalar = 0
        for i in 0..<n { largestGradient = Swift.max(largestGradient, abs(gradient[i])) }
        if largestGradient <= gradientTolerance * Swift.max(1, cost) { termination = .smallGradient; break }
        iteration += 1
        damped.update(from: normal, count: n * n)
        for i in 0..<n { damped[i * n + i] += lambda * Swift.max(normal[i * n + i], Scalar.ulpOfOne) }
        guard Cholesky<Scalar>.factor(damped, n: n) else {
          lambda *= nu
          nu *= 2
          if !lambda.isFinite { termination = .numericalFailure; break }
          continue
        }
        for i in 0..<n { step[i] = -gradient[i] }
        Cholesky<Scalar>.solve(factor: damped, step, n: n)
        // Decrease the quadratic model predicts: ½δᵀ(λDδ − g).
        var predicted: Scalar = 0, stepNorm: Scalar = 0
        for i in 0..<n {
          predicted +=
            step[i] * (lambda * Swift.max(normal[i * n + i], Scalar.ulpOfOne) * step[i] - gradient[i])
          stepNorm += step[i] * step[i]
        }
        predicted /= 2
        if costTolerance > 0 && predicted <= costTolerance * cost { termination = .smallCostChange; break }
        let magnitude = problem.magnitude(x)
        if stepNorm.squareRoot() <= stepTolerance * (magnitude + stepTolerance) {
          termination = .smallStep; break
        }
        let candidate = problem.moved(x, by: step)
        let candidateCost = evaluate(candidate, trialNormal, trialGradient)
        let rho = predicted > 0 ? (cost - candidateCost) / predicted : -1
        if rho > 0 && candidateCost.isFinite {
          let decrease = cost - candidateCost
          x = candidate
          swap(&normal, &trialNormal)
          swap(&gradient, &trialGradient)
          let previous = cost
          cost = candidateCost
          let f = 2 * rho - 1
          lambda *= Swift.max(1 / 3, 1 - f * f * f)
          nu = 2
          if costTolerance > 0 && decrease <= costTolerance * previous {
            termination = .smallCostChange; break
          }
        } else {
          lambda *= nu
          nu *= 2
          if !lambda.isFinite { termination = .numericalFailure; break }
        }
      }
      var matrix = DenseMatrix<Scalar>(rows: n, columns: n)
      matrix.elements.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: normal, count: n * n) }
      return Solution(
        parameters: x, cost: cost, iterations: iteration, termination: termination, normalMatrix: matrix)
    }
  }

  /// `½‖r‖²`.
  @inlinable
  static func halfSquaredNorm(_ r: [Scalar]) -> Scalar { r.reduce(0) { $0 + $1 * $1 } / 2 }

  /// The Jacobian by central differences, with steps scaled to each parameter (`∛ε·max(1, |x|)`,
  /// which balances truncation against round-off).
  @inlinable
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

extension LevenbergMarquardt.Solution: Sendable where Parameters: Sendable {}
