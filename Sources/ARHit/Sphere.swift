/// A sphere in world metres: an acupressure point, a POI marker.
public struct Sphere: Hashable, Sendable {
  /// Centre, world metres.
  public var center: SIMD3<Double>
  /// Radius, metres (> 0).
  public var radius: Double

  /// A sphere; validate input from outside with ``validated(name:)``.
  public init(center: SIMD3<Double>, radius: Double) {
    self.center = center
    self.radius = radius
  }

  /// The sphere, or an error naming it when its radius is not positive or a value is not finite.
  public func validated(name: String) throws(HitError) -> Sphere {
    guard radius > 0, radius.isFinite else {
      throw .invalidSphere(name: name, reason: "radius \(radius) must be positive and finite")
    }
    guard center.x.isFinite, center.y.isFinite, center.z.isFinite else {
      throw .invalidSphere(name: name, reason: "centre is not finite")
    }
    return self
  }

  /// Where `ray` enters and leaves the sphere (ray parameters, entry ≤ exit), or nil if it
  /// misses. Entry may be negative when the ray starts inside.
  ///
  /// Numerically stable per Haines, Günther and Akenine-Möller ("Precision Improvements for
  /// Ray/Sphere Intersection", Ray Tracing Gems, 2019): the discriminant is computed from the
  /// distance of the centre to the ray's line, which does not cancel when the sphere is small and
  /// far away (the acupressure case: a 5 mm sphere 3 m off), and the two roots from the
  /// numerically safe pair `c/q`, `q/a`.
  @inlinable
  public func intersect(_ ray: HitRay) -> (entry: Double, exit: Double)? {
    let f = ray.origin - center
    let a = (ray.direction * ray.direction).sum()
    let b = -(f * ray.direction).sum()  // half of −b in the textbook form
    // The vector from the centre to the closest point of the line, without subtracting squares.
    let l = f + (b / a) * ray.direction
    let discriminant = radius * radius - (l * l).sum()
    guard discriminant >= 0 else { return nil }
    let c = (f * f).sum() - radius * radius
    let q = b + (b >= 0 ? 1 : -1) * (a * discriminant).squareRoot()
    if q == 0 { return (0, 0) }  // degenerate: the origin is on the sphere, tangent ray
    let t0 = c / q, t1 = q / a
    return t0 <= t1 ? (t0, t1) : (t1, t0)
  }
}
