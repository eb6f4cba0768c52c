/// A named point of a scene object, placed in the world.
public struct SceneTarget: Sendable, Equatable {
  /// The point's code (`LI4`).
  public var code: String
  /// Its full name and location text, if the point file has them.
  public var name: String?
  /// Where on the body or model the point lies, in words, if the point file says.
  public var location: String?
  /// The centre in world metres.
  public var center: SIMD3<Double>
  /// The radius in world metres.
  public var radius: Double
  /// The index of the object it belongs to.
  public var object: Int
}
