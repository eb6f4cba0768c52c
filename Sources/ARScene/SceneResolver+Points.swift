import ARMath
import ARMesh

extension SceneResolver {
  /// The points an object's `points` names: its point file's, or its model's marked points
  /// (named empty nodes) with the radius given.
  func pointSet(_ points: SceneFile.Points, model: ModelAsset, _ field: String) throws(SceneError) -> PointSet
  {
    switch (points.file, points.fromModel ?? false) {
    case (let file?, false):
      let pointsPath = try resolvePath(file, field + ".points.file")
      do { return try PointSet.load(path: pointsPath) } catch { throw SceneError(error) }
    case (nil, true):
      guard let radius = points.radius, radius.isFinite, radius > 0, radius <= 10 else {
        throw fail(
          field + ".radius", "from_model needs each point's radius in metres, above 0 and at most 10")
      }
      let marked = model.namedNodes.filter(\.isMarker)
      guard !marked.isEmpty else {
        throw fail(field + ".from_model", "the model has no named empty nodes to take as points")
      }
      return PointSet(
        markers: marked.map { ($0.name, [$0.position.x, $0.position.y, $0.position.z]) }, radius: radius)
    default: throw fail(field, "give a point file (file) or from_model, not both nor neither")
    }
  }

  /// Marker spheres (model frame) and world targets for an object's points.
  func pointMarkers(
    _ points: SceneFile.Points, model: ModelAsset, object: Int, worldFromModel: Matrix4<Float>,
    _ field: String
  ) throws(SceneError) -> ([Mesh], [SceneTarget]) {
    let set = try pointSet(points, model: model, field)
    var material = Material(name: "marker")
    material.diffuse = try vector(points.color, 3, field + ".color") ?? SIMD3(0.85, 0.05, 0.05)
    material.specular = SIMD3(repeating: 0.3)
    material.shininess = 40
    // Radii scale with the object (uniform scale assumed: the largest axis scale).
    let linear = worldFromModel.linear
    let scale = max(linear.columns.0.length, linear.columns.1.length, linear.columns.2.length)
    var markers: [Mesh] = []
    var targets: [SceneTarget] = []
    for point in set.points {
      let p = SIMD3<Float>(Float(point.position[0]), Float(point.position[1]), Float(point.position[2]))
      let sphere = Mesh.sphere(center: p, radius: Float(point.radius), material: material)
      markers.append(sphere)
      let world = worldFromModel * SIMD4<Float>(p, 1)
      targets.append(
        SceneTarget(
          code: point.code, name: point.name, location: point.location,
          center: SIMD3(Double(world.x), Double(world.y), Double(world.z)),
          radius: point.radius * Double(scale),
          object: object))
    }
    return (markers, targets)
  }
}
