import ARMath
import ARPose
import ARRender

extension SceneResolver {
  /// `world_from_marker` of a marker anchor: the marker's pose from its corners in the scene's
  /// camera (at the file's output size), turned from the OpenCV camera frame into the ARKit one
  /// the scene's pose uses.
  func worldFromMarkerAnchor(
    _ marker: SceneFile.Anchor.MarkerAnchor, camera: PinholeCamera<Double>, _ field: String
  ) throws(SceneError) -> Matrix4<Float> {
    guard marker.corners.count == 8 else {
      throw fail(field + ".corners", "expected 8 numbers (4 corners x, y)")
    }
    let k = camera.intrinsics
    let result: MarkerPose
    do {
      result = try SquareMarker.pose(
        corners: (0..<4).map { SIMD2(marker.corners[2 * $0], marker.corners[2 * $0 + 1]) }, size: marker.size,
        intrinsics: k.pinhole)
    } catch { throw fail(field, error.description) }
    let pose = result.solutions[0].expressed(in: .arkit)
    return Self.floatMatrix(camera.worldFromCamera * pose.cameraFromTarget)
  }

  /// `world_from_anchor` of a plane anchor: detect planes in the cloud, pick one, and stand the
  /// anchor on it (+Y along its normal, +X along its extent's first axis).
  func worldFromPlaneAnchor(_ plane: SceneFile.Anchor.PlaneAnchor, _ field: String) throws(SceneError)
    -> Matrix4<Float>
  {
    let planes: [DetectedPlane]
    let pointsPath = try resolvePath(plane.points, field + ".points")
    do {
      let cloud = try PointCloud.read(path: pointsPath)
      planes = try PlaneDetector(threshold: plane.threshold ?? 0.01).detect(cloud)
    } catch { throw fail(field + ".points", error.description) }
    let selection = plane.select ?? "horizontal"
    let candidates: [DetectedPlane]
    switch selection {
    case "largest": candidates = planes
    case "horizontal": candidates = planes.filter { $0.classification == .horizontal }
    case "vertical": candidates = planes.filter { $0.classification == .vertical }
    default: throw fail(field + ".select", "expected largest, horizontal or vertical, got \(selection)")
    }
    var position: SIMD3<Double>? = nil
    if let p = plane.position {
      guard p.count == 3, p.allSatisfy(\.isFinite) else {
        throw fail(field + ".position", "expected 3 finite numbers")
      }
      position = SIMD3(p[0], p[1], p[2])
    }
    // With a position, the candidate plane nearest to it (the table, not the larger floor);
    // without, the largest.
    let chosen =
      position.map { q in candidates.min { abs($0.distance(q)) < abs($1.distance(q)) } } ?? candidates.first
    guard let chosen else {
      throw fail(field + ".points", "no \(selection == "largest" ? "" : selection + " ")plane found")
    }
    let origin = position.map { $0 - chosen.normal * chosen.distance($0) } ?? chosen.extentCenter
    let x = chosen.axisX, y = chosen.normal
    let pose = RigidTransform(rotationMatrix: Matrix3(x, y, x.cross(y)), translation: origin)
    return Self.floatMatrix(pose)
  }

  static func floatMatrix(_ pose: RigidTransform<Double>) -> Matrix4<Float> {
    let r = pose.rotation.matrix
    func float(_ v: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }
    return Matrix4(
      linear: Matrix3(float(r.columns.0), float(r.columns.1), float(r.columns.2)),
      translation: float(pose.translation))
  }
}
