import ARMath
import ARMesh

extension SceneResolver {
  /// Marker spheres (model frame) and world targets for an object's point file.
  func pointMarkers(
    _ points: SceneFile.Points, object: Int, worldFromModel: Matrix4<Float>, _ field: String
  ) throws(SceneError) -> ([Mesh], [SceneTarget]) {
    let set: PointSet
    do { set = try PointSet.load(path: resolvePath(points.file)) } catch { throw SceneError(error) }
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
