import ARMath
import ARMesh
import ARRecording

/// Where the truth puts the content, drawn beside where the app put it: a translucent ghost of
/// every object, so a person sees the drift frame by frame.
///
/// Content is taken as placed at the first frame that has a truth pose: from then on the app
/// draws it through its own poses `E(t)`, and in truth it belongs where the truth's poses `G(t)`
/// say, `E(t)·G(t)⁻¹·G(t₀)·E(t₀)⁻¹` in the app's world (what ARRecording's `AnchorDrift` measures, drawn).
public struct TruthGhost: Sendable {
  /// The true camera-to-world poses, in the recording's camera frame (ARKit's), on its clock.
  public var truth: Trajectory
  /// How far apart in time a frame and the truth pose used for it may be, seconds.
  public var maxDifference = 0.05
  /// The ghost's colour, linear RGB (default cyan), and its opacity.
  public var color = SIMD3<Float>(0.1, 0.85, 1), opacity: Float = 0.45

  /// A ghost of `truth` with the defaults above.
  public init(truth: Trajectory) { self.truth = truth }

  /// The truth's pose nearest `time`, within ``maxDifference``.
  func pose(at time: Double) -> RigidTransform<Double>? {
    let times = truth.timestamps
    guard !times.isEmpty else { return nil }
    var (low, high) = (0, times.count)
    while low < high {
      let mid = (low + high) / 2
      if times[mid] < time { low = mid + 1 } else { high = mid }
    }
    let candidates = [low - 1, low].filter { times.indices.contains($0) }
    guard let best = candidates.min(by: { abs(times[$0] - time) < abs(times[$1] - time) }),
      abs(times[best] - time) <= maxDifference
    else { return nil }
    return truth.poses[best]
  }

  /// `mesh` as the ghost draws it: every material the ghost's colour, translucent, untextured.
  func ghostMesh(_ mesh: Mesh) -> Mesh {
    var ghost = mesh
    for m in ghost.materials.indices {
      var material = Material(name: ghost.materials[m].name + " (truth)")
      material.diffuse = color
      material.emissive = color * 0.4
      material.opacity = opacity
      ghost.materials[m] = material
    }
    return ghost
  }
}
