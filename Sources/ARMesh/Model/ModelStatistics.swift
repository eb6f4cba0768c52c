/// What `arscene model stats` prints: a model's counts and its bounds in metres in the model's
/// frame (+Y up), the names of its named nodes.
public struct ModelStatistics: Encodable, Sendable {
  /// `obj`, `gltf` or `glb`.
  public var format: String
  /// Vertices of the renderable mesh (a primitive without normals has three a triangle, as its
  /// flat normals need) and its triangles.
  public var vertices: Int, triangles: Int
  /// The file's nodes, meshes, materials and animations.
  public var nodes: Int, meshes: Int, materials: Int, animations: Int
  public var bounds: Bounds?
  public var namedNodes: [String]

  /// Axis-aligned bounds, metres.
  public struct Bounds: Encodable, Sendable {
    public var min: [Double], max: [Double]
  }

  public init(_ asset: ModelAsset) {
    format = asset.format.rawValue
    vertices = asset.mesh.vertexCount
    triangles = asset.mesh.triangleCount
    (nodes, meshes, materials, animations) = asset.counts
    namedNodes = asset.namedNodes.map(\.name)
    let box = asset.mesh.bounds
    if !asset.mesh.positions.isEmpty {
      let o = asset.mesh.origin
      bounds = Bounds(
        min: [o.x + Double(box.min.x), o.y + Double(box.min.y), o.z + Double(box.min.z)],
        max: [o.x + Double(box.max.x), o.y + Double(box.max.y), o.z + Double(box.max.z)])
    }
  }

  enum CodingKeys: String, CodingKey {
    case format, vertices, triangles, nodes, meshes, materials, animations, bounds
    case namedNodes = "named_nodes"
  }
}
