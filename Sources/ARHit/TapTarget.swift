import ARMath

/// A named thing a user can tap: a sphere in world metres (an acupressure point, a POI marker).
public struct TapTarget: Hashable, Sendable {
  /// The name reported back (e.g. `LI4`).
  public var name: String
  /// Where and how big, metres.
  public var sphere: Sphere

  /// A target.
  public init(name: String, sphere: Sphere) {
    self.name = name
    self.sphere = sphere
  }
}
