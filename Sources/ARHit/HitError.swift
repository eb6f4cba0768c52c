/// Invalid input to hit-testing, named by what was wrong.
public enum HitError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A ray with a zero-length or non-finite direction or a non-finite origin.
  case invalidRay(String)
  /// A sphere with a non-positive or non-finite radius, or a non-finite centre.
  case invalidSphere(name: String, reason: String)
  /// A mesh with no triangles, or with non-finite vertices.
  case invalidMesh(String)
  /// A tap outside the viewport, or a bad viewport.
  case invalidTap(String)

  public var description: String {
    switch self {
    case .invalidRay(let why): "invalid ray: \(why)"
    case .invalidSphere(let name, let why): "target '\(name)': \(why)"
    case .invalidMesh(let why): "invalid mesh: \(why)"
    case .invalidTap(let why): "invalid tap: \(why)"
    }
  }
}

/// A ray for hit-testing, in `Double`: origin and direction in world metres. The direction need
/// not be unit length; distances `t` along it are in multiples of it (unit direction: metres).
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

  /// The point at parameter `t`.
  @inlinable public func point(at t: Double) -> SIMD3<Double> { origin + t * direction }
}
