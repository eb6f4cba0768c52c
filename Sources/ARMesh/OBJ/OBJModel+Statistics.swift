import ARMath

/// Counts of what an OBJ file holds, as `arscene obj stats` prints them.
public struct OBJStatistics: Codable, Equatable, Sendable {
  /// `v` statements.
  public var vertices: Int
  /// `vt` statements.
  public var texcoords: Int
  /// `vn` statements.
  public var normals: Int
  /// `f` statements.
  public var faces: Int
  /// Triangles after triangulation (a face of `n` corners gives `n − 2`).
  public var triangles: Int
  /// `l` polylines.
  public var lines: Int
  /// `p` points.
  public var points: Int
  /// Distinct `o` names.
  public var objects: Int
  /// Distinct `g` names.
  public var groups: Int
  /// Names of the materials the MTL libraries define, in file order.
  public var materials: [String]
  /// `usemtl` names in order of first use.
  public var usedMaterials: [String]
  /// Axis-aligned bounds of the `v` positions: `min` and `max`, each `[x, y, z]`; absent for
  /// a file without vertices.
  public var bounds: Bounds?
  /// Number of warnings.
  public var warnings: Int

  /// Bounds as JSON arrays, in the file's coordinates.
  public struct Bounds: Codable, Equatable, Sendable {
    /// The smallest `[x, y, z]`.
    public var min: [Double]
    /// The largest `[x, y, z]`.
    public var max: [Double]

    /// Bounds from `min` to `max`.
    public init(min: [Double], max: [Double]) {
      self.min = min
      self.max = max
    }
  }

  enum CodingKeys: String, CodingKey {
    case vertices, texcoords, normals, faces, triangles, lines, points, objects, groups, materials
    case usedMaterials = "used_materials"
    case bounds, warnings
  }

  /// The statistics of a loaded asset.
  public init(_ asset: OBJAsset) {
    let m = asset.model
    vertices = m.positions.count
    texcoords = m.texcoords.count
    normals = m.normals.count
    faces = m.faceCount
    triangles = m.triangleCount
    lines = m.lines.count
    points = m.points.count
    objects = m.objectNames.count
    groups = m.groupNames.count
    materials = asset.libraryMaterials.map(\.name)
    usedMaterials = m.materialNames
    let box = m.bounds
    bounds =
      box.isEmpty
      ? nil : Bounds(min: [box.min.x, box.min.y, box.min.z], max: [box.max.x, box.max.y, box.max.z])
    warnings = asset.warnings.count
  }
}
