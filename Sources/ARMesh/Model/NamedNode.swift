/// A named node of a model (glTF): where its origin is in the model's frame (metres), and
/// whether it carries geometry. Empties (nodes without a mesh) mark points on a model, such as
/// acupressure points on a hand: they are what tap tests can aim at.
public struct NamedNode: Sendable, Equatable {
  /// The node's name in the file.
  public var name: String
  /// Its origin in the model's frame, metres.
  public var position: SIMD3<Double>
  /// Whether the node draws a mesh (false for an empty).
  public var hasMesh: Bool
  /// Whether other nodes hang under it (a group, a scene's root).
  public var hasChildren: Bool

  /// A node with these fields.
  public init(name: String, position: SIMD3<Double>, hasMesh: Bool, hasChildren: Bool) {
    self.name = name
    self.position = position
    self.hasMesh = hasMesh
    self.hasChildren = hasChildren
  }

  /// An empty with nothing under it: a marked point.
  public var isMarker: Bool { !hasMesh && !hasChildren }
}
