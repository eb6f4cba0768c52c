import ARMath

/// The mesh being built from a scene's primitives: each primitive placed by its transform and
/// drawn with a material, kept as appended and built into one mesh by ``mesh()`` (on every
/// core, each vertex transformed in `Double` and stored as a `Float` offset from the origin).
struct GLTFGeometry {
  /// The primitives appended, in order.
  private(set) var placements: [Placement] = []
  /// The vertices (a point each, or three a triangle where a primitive has no normals) and the
  /// triangles appended so far.
  private(set) var vertexCount = 0, triangleCount = 0
  var materials: [Material] = []
  /// Each material's `KHR_texture_transform` of its base colour texture.
  var textureTransforms: [GLTFDocument.TextureTransform?] = []
  /// Each material's `KHR_texture_transform` of its maps on the second texture-coordinate set.
  var secondTransforms: [GLTFDocument.TextureTransform?] = []

  /// A primitive to append: its attributes placed by `world`, drawn with material `material`.
  struct Placement: Sendable {
    var attributes: GLTFPrimitiveAttributes
    var world: Matrix4<Double>
    var material: Int
  }

  /// Appends a primitive placed by `world`, drawn with material `material`: its vertices
  /// through the transform (flat normals, a vertex a triangle corner, where it has none, as the
  /// specification asks; a mirroring transform's triangles turned to keep their front faces),
  /// its triangles a submesh.
  mutating func append(_ p: GLTFPrimitiveAttributes, world: Matrix4<Double>, mode: Int, material: Int) {
    placements.append(Placement(attributes: p, world: world, material: material))
    vertexCount += GLTFPlacementLayout.vertices(of: p)
    triangleCount += p.triangles.count / 3
  }

  /// The counts of ``mesh()``'s vertices and triangles and the bounds ``assembled()`` finds,
  /// without the mesh: its vertices are placed but not written, and no normals are made.
  func surveyed() -> (vertices: Int, triangles: Int, bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?) {
    let layout = GLTFPlacementLayout(placements)
    return (layout.vertices, layout.indices / 3, layout.bounds(placements).map { (min: $0.0, max: $0.1) })
  }

  /// The origin the mesh of vertices within `bounds` (the asset's frame, metres) is stored
  /// from: their centre when it lies more than ``recentringDistance`` from the asset's own
  /// origin, else zero.
  static func origin(for bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?) -> SIMD3<Double> {
    guard let (low, high) = bounds else { return .zero }
    let centre = (low + high) / 2
    return (centre * centre).sum() > recentringDistance * recentringDistance ? centre : .zero
  }

  /// How far (metres) a model's centre may lie from its asset's origin before its vertices are
  /// stored as offsets from that centre: a `Float` 64 m out is good to 4 µm. Beyond, rounding
  /// grows with the distance (60 µm at 1.3 km, where a ray meeting a face at a grazing angle of
  /// 1 in 230, as a Blender export placed there showed, lands 4 mm from usd-core's hit).
  static let recentringDistance = 64.0

  /// The mesh: each vertex an offset in `Float` from an origin at the bounds' centre when the
  /// asset lies far from its own (a georeferenced model), else from zero. Positions, normals and
  /// indices are written on every core, the bounds found as they are; a model that turns out
  /// far from its origin is written again from its centre (the rare case pays twice).
  func mesh() -> Mesh { assembled().mesh }

  /// ``mesh()`` and the bounds of its vertices in the asset's frame (metres, `Double`; nil for
  /// none), found as they were written: a model's bounds without another pass over them.
  func assembled() -> (mesh: Mesh, bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?) {
    let layout = GLTFPlacementLayout(placements)
    var (positions, normals, indices, bounds) = layout.write(placements, origin: .zero)
    let origin = Self.origin(for: bounds.map { (min: $0.0, max: $0.1) })
    if origin != .zero { (positions, normals, indices, _) = layout.write(placements, origin: origin) }
    var extras = GLTFVertexExtras(textureTransforms: textureTransforms, secondTransforms: secondTransforms)
    var submeshes: [Mesh.Submesh] = []
    for (k, placement) in placements.enumerated() {
      let p = placement.attributes
      let flat = !p.hasNormals
      extras.append(
        p, vertexOf: { k in flat ? Int(p.triangles[k]) : k }, before: layout.vertexStarts[k],
        count: layout.vertexCounts[k], material: placement.material)
      let first = layout.indexStarts[k] / 3
      let last = first + p.triangles.count / 3
      if last > first {
        submeshes.append(Mesh.Submesh(triangles: first..<last, material: placement.material))
      }
    }
    var mesh = Mesh(
      positions: positions, normals: normals, texcoords: extras.texcoords, colors: extras.colors,
      indices: indices, submeshes: submeshes, materials: materials.isEmpty ? [.fallback] : materials,
      origin: origin)
    mesh.texcoords1 = extras.texcoords1
    return (mesh, bounds.map { (min: $0.0, max: $0.1) })
  }
}
