/// A least-squares problem, `min ½‖r(x)‖²`, that builds its own normal equations: for fixed
/// small problems (a pose's 6 parameters over a few points) that are evaluated in a hot loop,
/// where forming a Jacobian matrix and the closures of the array interface cost more than the
/// arithmetic. ``LevenbergMarquardt/minimize(_:from:)`` solves it with no allocation but one
/// buffer of `3n² + 3n` scalars on the stack.
public protocol NormalEquationsProblem {
  associatedtype Scalar: ARScalar
  /// The parameters: any representation (a vector, a pose), moved by steps of
  /// ``parameterCount`` scalars.
  associatedtype Parameters

  /// The number of scalars in a step, `n`.
  var parameterCount: Int { get }

  /// `½‖r(x)‖²`, with `JᵀJ` added into `normal` (`n×n`, row-major) and `Jᵀr` into `gradient`
  /// (`n`), both zero on entry.
  func evaluate(
    _ x: Parameters, normal: UnsafeMutablePointer<Scalar>, gradient: UnsafeMutablePointer<Scalar>
  ) -> Scalar

  /// `x` moved by `step` (`n` scalars): `x + δ` for vectors, a perturbation composed onto a
  /// rotation for poses.
  func moved(_ x: Parameters, by step: UnsafePointer<Scalar>) -> Parameters

  /// The size of `x` that step lengths are compared with (its Euclidean norm for vectors).
  func magnitude(_ x: Parameters) -> Scalar
}
