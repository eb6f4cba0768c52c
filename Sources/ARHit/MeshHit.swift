import ARMath
import ARMesh

/// The closest (or any) hit of a ray with a triangle mesh.
public struct MeshHit: Hashable, Sendable {
  /// Ray parameter of the hit (metres when the direction is unit length).
  public var t: Double
  /// Index of the triangle in the mesh (`mesh.triangle(i)`).
  public var triangle: Int
  /// Barycentric coordinate of the triangle's second vertex at the hit.
  public var u: Double
  /// Barycentric coordinate of the triangle's third vertex at the hit.
  public var v: Double
}
