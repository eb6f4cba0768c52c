/// A half-line `origin + t·direction`, `t ≥ 0`, with a unit direction. Positions in metres.
@frozen
public struct Ray<Scalar: ARScalar>: Hashable, Sendable {
  /// The start point.
  public var origin: SIMD3<Scalar>
  /// The unit direction.
  public var direction: SIMD3<Scalar>

  /// A ray from trusted values: the caller guarantees a finite origin and a unit direction.
  @inlinable
  public init(unchecked origin: SIMD3<Scalar>, direction: SIMD3<Scalar>) {
    self.origin = origin
    self.direction = direction
  }

  /// A ray with `direction` normalised; `nil` when the origin is not finite or the direction is
  /// zero, too short to normalise, or not finite.
  @inlinable
  public init?(origin: SIMD3<Scalar>, direction: SIMD3<Scalar>) {
    guard origin.isFinite, let unit = direction.normalizedOrNil() else { return nil }
    self.init(unchecked: origin, direction: unit)
  }

  /// The point at distance `t` (metres) along the ray.
  @inlinable
  public func point(at t: Scalar) -> SIMD3<Scalar> { origin + direction * t }
}
