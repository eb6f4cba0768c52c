/// How a tap decides which target it meant.
public enum TapPolicy: Hashable, Sendable {
  /// The tap's ray must pass through the sphere, in front of the mesh. Exact, but a 5 mm point
  /// 3 m away is 2 px across: fingers miss it and "hit the hand instead of the point".
  case exactSphere
  /// The target's centre must show within `points` of the tap on screen (plus its own projected
  /// radius) and be visible (not behind the mesh). The tolerance is on screen, so it does not
  /// shrink with distance: a finger's precision is the same near and far. Apple's guidelines ask
  /// for 44-point touch targets, hence a default of 22.
  case screenTolerance(points: Double)
  /// The fallback of the acupressure thesis: cast the tap at the mesh and take the target whose
  /// centre is nearest the mesh hit, within `factor` × the camera distance (plus its radius).
  /// The tolerance grows with distance, but targets are not checked for visibility, so points
  /// on the far side of a thin hand can be accepted (the reported false positives).
  case meshProximity(factor: Double)

  /// The default screen tolerance, points: half of a 44-point touch target.
  public static let standardScreenTolerance = 22.0
  /// The default factor of ``meshProximity(factor:)``: 2 cm per metre of camera distance.
  public static let standardMeshProximityFactor = 0.02
  /// The default policy: ``screenTolerance(points:)`` with ``standardScreenTolerance``.
  public static let standard = TapPolicy.screenTolerance(points: standardScreenTolerance)

  /// The names a policy goes by in files and on the command line, each with what its
  /// tolerance means.
  public static let names = ["exact", "screen", "mesh"]

  /// The policy called `name` (`exact`, `screen` or `mesh`) with `tolerance` (points for
  /// `screen`, metres per metre for `mesh`; ignored by `exact`), or its default when nil.
  ///
  /// - Throws: ``HitError/invalidPolicy(_:)`` for another name or a negative or non-finite
  ///   tolerance.
  public init(name: String, tolerance: Double? = nil) throws(HitError) {
    if let tolerance, !(tolerance >= 0 && tolerance.isFinite) {
      throw .invalidPolicy("the tolerance must be a non-negative number, got \(tolerance)")
    }
    switch name {
    case "exact": self = .exactSphere
    case "screen": self = .screenTolerance(points: tolerance ?? Self.standardScreenTolerance)
    case "mesh": self = .meshProximity(factor: tolerance ?? Self.standardMeshProximityFactor)
    default: throw .invalidPolicy("expected \(Self.names.joined(separator: ", ")), got \(name)")
    }
  }
}
