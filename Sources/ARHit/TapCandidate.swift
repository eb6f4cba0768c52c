/// One target as a tap saw it.
public struct TapCandidate: Hashable, Sendable {
  /// The target's name.
  public var name: String
  /// Accepted, or why not.
  public var verdict: TapVerdict
  /// Distance along the tap ray to the target (sphere entry, or closest approach when missed),
  /// metres.
  public var rayDistance: Double
  /// Distance on screen from the tap to the target's projected centre, points (nil if behind).
  public var screenDistance: Double?
  /// The target's distance from the camera, metres.
  public var cameraDistance: Double
}
