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
  /// A tap policy's name or tolerance that does not exist.
  case invalidPolicy(String)

  public var description: String {
    switch self {
    case .invalidRay(let why): "invalid ray: \(why)"
    case .invalidSphere(let name, let why): "target '\(name)': \(why)"
    case .invalidMesh(let why): "invalid mesh: \(why)"
    case .invalidTap(let why): "invalid tap: \(why)"
    case .invalidPolicy(let why): "invalid tap policy: \(why)"
    }
  }
}
