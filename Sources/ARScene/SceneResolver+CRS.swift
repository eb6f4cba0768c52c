import ARGeo
import ARMath
import ARMesh

extension SceneResolver {
  /// A model whose vertices are coordinates in a projected CRS (`crs`: a survey's site model in
  /// UTM or a national grid, x easting, y northing, z height above the ellipsoid), placed by
  /// them: every vertex through PROJ to WGS84, then into the scene's session world by its
  /// `geo` frame and alignment, in `Double`, kept as `Float` offsets from a `Double` origin at
  /// the model's centre (millimetres are kept, however far the grid's origin). The model rides
  /// on a geo-anchor at that centre, so that a recording's alignment moves it as it moves the
  /// other geo-anchored content.
  ///
  /// - Returns: The mesh in world coordinates, and its anchor with `anchorFromModel`.
  func placeInCRS(_ mesh: Mesh, crs: String, _ placement: GeoPlacement?, _ field: String) throws(SceneError)
    -> (mesh: Mesh, geoAnchor: (anchor: GeoAnchor, anchorFromModel: Matrix4<Float>))
  {
    guard let placement else { throw fail(field, "a model placed by its CRS needs the scene's geo.origin") }
    guard let projection else {
      throw fail(
        field, "a model placed by its CRS needs a CRS conversion (the arscene command line uses PROJ)")
    }
    let toWGS84: (Double, Double) throws -> (latitude: Double, longitude: Double)
    do { toWGS84 = try projection(crs) } catch { throw fail(field, "\(error)") }
    /// A model point (easting, northing, height) in the session world.
    func world(_ m: SIMD3<Double>) throws(SceneError) -> (SIMD3<Double>, GeodeticCoordinate) {
      let latLon: (latitude: Double, longitude: Double)
      do { latLon = try toWGS84(m.x, m.y) } catch { throw fail(field, "vertex \(m): \(error)") }
      let g = GeodeticCoordinate(
        latitudeDegrees: latLon.latitude, longitudeDegrees: latLon.longitude, height: m.z)
      return (placement.alignment.sessionPoint(enu: placement.frame.enu(g)), g)
    }
    guard !mesh.positions.isEmpty else { throw fail(field, "the model has no vertices to place") }
    var points: [SIMD3<Double>] = []
    points.reserveCapacity(mesh.positions.count)
    for i in mesh.positions.indices { points.append(try world(mesh.modelPosition(i)).0) }
    let bounds = mesh.bounds
    let centre = mesh.origin + SIMD3<Double>((bounds.min + bounds.max) / 2)
    let (centreWorld, centreGeodetic) = try world(centre)
    guard centreWorld.length <= 10_000 else {
      throw fail(
        field,
        "the model is \(Self.metres(centreWorld.length)) from the scene's geo.origin; keep it within 10 km")
    }
    // Normals turn with the map from grid to world near the centre (its Jacobian: grid
    // convergence, the scale factor and the axes' turn to y up), by its inverse transpose.
    let j = Matrix3<Double>(
      try world(centre + SIMD3(1, 0, 0)).0 - centreWorld, try world(centre + SIMD3(0, 1, 0)).0 - centreWorld,
      try world(centre + SIMD3(0, 0, 1)).0 - centreWorld)
    guard let normalMap = j.inverse?.transposed else { throw fail(field, "the CRS maps the model flat") }
    var placed = mesh
    placed.origin = centreWorld
    placed.positions = points.map { SIMD3<Float>($0 - centreWorld) }
    placed.normals = mesh.normals.map { n in
      SIMD3<Float>((normalMap * SIMD3<Double>(n)).normalizedOrNil() ?? SIMD3(0, 1, 0))
    }
    let anchor = GeoAnchor(coordinate: centreGeodetic)
    let pose = anchor.sessionFromAnchor(in: placement.frame, alignment: placement.alignment)
    return (placed, (anchor, Self.floatMatrix(pose.inverse)))
  }
}
