import ARHit
import ARScene

/// What a tap on a scene selected, and why, as `arscene hit` prints it: `tap` (view points),
/// `policy` and `tolerance` (when given), `hit` (the accepted point's code, or null), `ray`
/// (`origin`, `direction`, world metres), `mesh_hit` (`t` in metres and `triangle`, or null),
/// and `candidates`: every point with `code`, `name`, `accepted`, `verdict`, `explanation`,
/// `ray_distance_m`, `screen_distance_pt` and `camera_distance_m`. Distances are rounded to
/// nanometres (nano-points), so that the output does not depend on the last bits of the
/// platform's arithmetic.
public struct SceneTapReport: Encodable, Sendable {
  /// The tap, view points.
  public var tap: SIMD2<Double>
  /// The policy's name (`TapPolicy.names` in ARHit).
  public var policyName: String
  /// The tolerance given with the policy, if any.
  public var tolerance: Double?
  /// The result.
  public var result: TapResult
  /// The scene's points by code, for their names.
  public var targets: [String: SceneTarget]

  /// The report of `result` for a tap at `tap` (pixels) under the policy `policyName`.
  public init(tap: SIMD2<Double>, policyName: String, tolerance: Double?, result: TapResult, scene: Scene) {
    self.tap = tap
    self.policyName = policyName
    self.tolerance = tolerance
    self.result = result
    targets = Dictionary(scene.targets.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
  }

  private enum Keys: String, CodingKey {
    case tap, policy, tolerance, hit, candidates, ray
    case meshHit = "mesh_hit"
  }
  private enum CandidateKeys: String, CodingKey {
    case code, name, accepted, verdict, explanation
    case rayDistance = "ray_distance_m", screenDistance = "screen_distance_pt"
    case cameraDistance = "camera_distance_m"
  }
  private enum RayKeys: String, CodingKey { case origin, direction }
  private enum MeshHitKeys: String, CodingKey { case t, triangle }

  /// `x` rounded to 10⁻⁹.
  private static func rounded(_ x: Double) -> Double { (x * 1e9).rounded() / 1e9 }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode([tap.x, tap.y], forKey: .tap)
    try c.encode(policyName, forKey: .policy)
    try c.encodeIfPresent(tolerance, forKey: .tolerance)
    try c.encode(result.best, forKey: .hit)
    var candidates = c.nestedUnkeyedContainer(forKey: .candidates)
    for candidate in result.candidates {
      var item = candidates.nestedContainer(keyedBy: CandidateKeys.self)
      try item.encode(candidate.name, forKey: .code)
      try item.encode(targets[candidate.name]?.name, forKey: .name)
      try item.encode(candidate.verdict == .accepted, forKey: .accepted)
      try item.encode(candidate.verdict.code, forKey: .verdict)
      try item.encode(candidate.verdict.explanation, forKey: .explanation)
      try item.encode(Self.rounded(candidate.rayDistance), forKey: .rayDistance)
      try item.encode(candidate.screenDistance.map(Self.rounded), forKey: .screenDistance)
      try item.encode(Self.rounded(candidate.cameraDistance), forKey: .cameraDistance)
    }
    var ray = c.nestedContainer(keyedBy: RayKeys.self, forKey: .ray)
    try ray.encode((0..<3).map { Self.rounded(result.ray.origin[$0]) }, forKey: .origin)
    try ray.encode((0..<3).map { Self.rounded(result.ray.direction[$0]) }, forKey: .direction)
    if let meshHit = result.meshHit {
      var hit = c.nestedContainer(keyedBy: MeshHitKeys.self, forKey: .meshHit)
      try hit.encode(Self.rounded(meshHit.t), forKey: .t)
      try hit.encode(meshHit.triangle, forKey: .triangle)
    } else {
      try c.encodeNil(forKey: .meshHit)
    }
  }
}
