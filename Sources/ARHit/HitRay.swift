import ARMath

/// A ray for hit-testing, in `Double`: origin and direction in world metres. The direction need
/// not be unit length; distances `t` along it are in multiples of it (unit direction: metres).
///
/// Why not ARMath's `Ray`: that is a geometric value with a unit direction, made by
/// cameras and normalised on construction. A hit ray is the checked input of the hit tester:
/// any non-zero direction, so that a segment from `a` to `b` is the ray `(a, b − a)` with hits
/// at `t ≤ 1`, and rejection with a ``HitError`` that says what was wrong. A camera's
/// `Ray<Double>` becomes a hit ray through ``init(_:)``.
public struct HitRay: Hashable, Sendable {
  /// Where the ray starts.
  public let origin: SIMD3<Double>
  /// Where it goes: non-zero, finite.
  public let direction: SIMD3<Double>

  /// A ray, or an error for a zero-length or non-finite direction or a non-finite origin.
  public init(origin: SIMD3<Double>, direction: SIMD3<Double>) throws(HitError) {
    guard origin.x.isFinite, origin.y.isFinite, origin.z.isFinite else {
      throw .invalidRay("origin \(origin) is not finite")
    }
    guard direction.x.isFinite, direction.y.isFinite, direction.z.isFinite else {
      throw .invalidRay("direction \(direction) is not finite")
    }
    guard direction != .zero else { throw .invalidRay("direction has zero length") }
    self.origin = origin
    self.direction = direction
  }

  /// The hit ray along `ray` (unit direction, so `t` is in metres), checked as
  /// ``init(origin:direction:)`` checks.
  public init(_ ray: Ray<Double>) throws(HitError) {
    try self.init(origin: ray.origin, direction: ray.direction)
  }

  /// The point at parameter `t`.
  @inlinable public func point(at t: Double) -> SIMD3<Double> { origin + t * direction }
}
