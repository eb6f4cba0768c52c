import ARMath
import ARMesh

/// How a ``BoundingVolumeHierarchy`` is built.
public enum BVHQuality: Sendable {
  /// Binned surface-area heuristic: the fastest queries; for meshes queried by many rays.
  case high
  /// Morton order (LBVH, Lauterbach et al. 2009): six to seven times faster to build, queries
  /// some 5–15% slower; for a few rays per build, as taps on a mesh that just changed.
  case fast
}
