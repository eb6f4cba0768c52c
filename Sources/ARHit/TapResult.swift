/// What a tap hit.
public struct TapResult: Hashable, Sendable {
  /// The accepted target ranked first, if any.
  public var best: String? { candidates.first { $0.verdict == .accepted }?.name }
  /// Every target, accepted ones first (best first), then the rejected by screen distance.
  public var candidates: [TapCandidate]
  /// Where the tap ray meets the mesh, if it does.
  public var meshHit: MeshHit?
  /// The tap ray.
  public var ray: HitRay
}
