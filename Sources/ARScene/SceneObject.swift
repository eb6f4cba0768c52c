import ARGeo
import ARMath
import ARMesh

/// One object of a scene file, placed in the world: its model and the spheres that mark its
/// named points (acupressure points, points of interest).
public struct SceneObject: Sendable {
  /// The model in its own frame (metres).
  public var mesh: Mesh
  /// Model to world (metres): the object's transform, after its anchor's placement.
  public var worldFromModel: Matrix4<Float>
  /// Whether triangles facing away from the camera are skipped when rendering.
  public var cullBackFaces: Bool
  /// One sphere a named point (model frame, radius in metres), drawn with ``worldFromModel``.
  public var pointMarkers: [Mesh]
  /// For a geo-anchored object, its anchor and its transform in the anchor's frame: what
  /// ``Scene/placingGeoAnchors(with:)`` places again when the session's alignment changes.
  public var geoAnchor: (anchor: GeoAnchor, anchorFromModel: Matrix4<Float>)?
  /// The label shown over the object, if any.
  public var label: SceneLabel?
  /// Encoded images inside the model file (a GLB's textures), by the texture path its
  /// materials name.
  public var embeddedImages: [String: [UInt8]] = [:]

  /// An object drawing `mesh` at `worldFromModel`, with no label, anchor or embedded images.
  public init(
    mesh: Mesh, worldFromModel: Matrix4<Float>, cullBackFaces: Bool = true, pointMarkers: [Mesh] = []
  ) {
    self.mesh = mesh
    self.worldFromModel = worldFromModel
    self.cullBackFaces = cullBackFaces
    self.pointMarkers = pointMarkers
  }
}
