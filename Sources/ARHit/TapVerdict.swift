/// Why a target was accepted or rejected.
public enum TapVerdict: Hashable, Sendable {
  /// The target is hit.
  case accepted
  /// The ray passes the sphere by this much (metres, closest approach minus radius).
  case missed(byMetres: Double)
  /// The mesh is in front of the target at this distance along the ray (metres).
  case occluded(meshDistance: Double)
  /// The target is this far from the tap, beyond the tolerance: in points on screen, or in
  /// metres from the mesh hit for ``TapPolicy/meshProximity(factor:)`` (`unit` says which).
  case outsideTolerance(distance: Double, tolerance: Double, unit: String)
  /// The target is behind the camera.
  case behindCamera
  /// The tap ray hits no mesh, which ``TapPolicy/meshProximity(factor:)`` needs.
  case noMeshHit

  /// A short machine-readable name.
  public var code: String {
    switch self {
    case .accepted: "accepted"
    case .missed: "missed"
    case .occluded: "occluded"
    case .outsideTolerance: "outside_tolerance"
    case .behindCamera: "behind_camera"
    case .noMeshHit: "no_mesh_hit"
    }
  }

  /// A sentence for people.
  public var explanation: String {
    switch self {
    case .accepted: "accepted"
    case .missed(let m): "the tap ray passes \(formatted(m * 1000)) mm outside the sphere"
    case .occluded(let d): "hidden behind the mesh, which the ray meets at \(formatted(d)) m"
    case .outsideTolerance(let d, let tolerance, let unit):
      "\(formatted(d)) \(unit) from the tap, beyond the tolerance of \(formatted(tolerance)) \(unit)"
    case .behindCamera: "behind the camera"
    case .noMeshHit: "the tap ray hits no mesh"
    }
  }
}

private func formatted(_ x: Double) -> String {
  let r = (x * 1000).rounded() / 1000
  return "\(r)"
}
