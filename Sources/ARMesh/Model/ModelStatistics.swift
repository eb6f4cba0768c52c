/// What `arscene model stats` prints: a model's counts and its bounds in metres in the model's
/// frame (+Y up), the names of its named nodes.
public struct ModelStatistics: Encodable, Sendable {
  /// `obj`, `gltf`, `glb`, `usdz`, `usdc` or `usda`.
  public var format: String
  /// Vertices of the renderable mesh (a primitive without normals has three a triangle, as its
  /// flat normals need) and its triangles.
  public var vertices: Int, triangles: Int
  /// The file's nodes, meshes, materials and animations.
  public var nodes: Int, meshes: Int, materials: Int, animations: Int
  /// The bounds as the format's own tools report them: the vertices' bounds, except for USD,
  /// whose authored extents (`UsdGeomBBoxCache`) they are.
  public var bounds: Bounds?
  /// The vertices' bounds, whatever the file declares.
  public var geometryBounds: Bounds?
  /// The names of the model's named nodes (glTF), in file order.
  public var namedNodes: [String]

  /// Axis-aligned bounds, metres.
  public struct Bounds: Encodable, Sendable {
    /// The smallest and largest `[x, y, z]`, metres.
    public var min: [Double], max: [Double]
  }

  /// The statistics of `asset`.
  public init(_ asset: ModelAsset) {
    format = asset.format.rawValue
    vertices = asset.vertexCount
    triangles = asset.triangleCount
    (nodes, meshes, materials, animations) = asset.counts
    namedNodes = asset.namedNodes.map(\.name)
    func bounds(_ box: (min: SIMD3<Double>, max: SIMD3<Double>)) -> Bounds {
      Bounds(min: [box.min.x, box.min.y, box.min.z], max: [box.max.x, box.max.y, box.max.z])
    }
    geometryBounds = asset.geometryBounds.map(bounds)
    self.bounds = asset.declaredBounds.map(bounds) ?? geometryBounds
  }

  /// The statistics of the model at `path` (``ModelAsset/load(path:lenient:time:tolerance:)``'s
  /// arguments), with the warnings its load gives: the same as those of the model loaded, but a
  /// USD stage's mesh is not assembled (no vertex arrays written, no normals made), its counts
  /// and bounds found as its assembly would find them.
  ///
  /// - Throws: ``ModelError`` as the load does.
  public static func read(
    path: String, lenient: Bool = false, time: Double? = nil, tolerance: Double? = nil
  ) throws(ModelError) -> (statistics: ModelStatistics, warnings: [String]) {
    let model = try ModelAsset.load(
      path: path, lenient: lenient, time: time, tolerance: tolerance, assembling: false)
    return (ModelStatistics(model), model.warnings)
  }

  enum CodingKeys: String, CodingKey {
    case format, vertices, triangles, nodes, meshes, materials, animations, bounds
    case geometryBounds = "geometry_bounds"
    case namedNodes = "named_nodes"
  }
}
