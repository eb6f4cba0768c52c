import ARHit
import ARMath
import ARRender
import ARScene

extension Scene {
  /// One hierarchy over all the objects' models in world coordinates (the tap occluder), and
  /// for each of its triangles the index of the object it came from; nil without models.
  public func occluder() throws(HitError) -> (hierarchy: BoundingVolumeHierarchy, objectOfTriangle: [Int])? {
    guard !objects.isEmpty else { return nil }
    var positions: [SIMD3<Double>] = []
    var indices: [Int] = []
    var objectOfTriangle: [Int] = []
    for (index, object) in objects.enumerated() {
      let base = positions.count
      // In Double: a model kept relative to a far origin keeps its precision.
      let worldFromModel = Matrix4<Double>(object.worldFromModel)
      for i in object.mesh.positions.indices {
        let w = worldFromModel * SIMD4(object.mesh.modelPosition(i), 1)
        positions.append(SIMD3(w.x, w.y, w.z))
      }
      indices += object.mesh.indices.map { base + Int($0) }
      objectOfTriangle += Array(repeating: index, count: object.mesh.triangleCount)
    }
    // Taps cast a few rays per build: the Morton-order build is the quicker whole.
    return (
      try BoundingVolumeHierarchy(positions: positions, indices: indices, quality: .fast), objectOfTriangle
    )
  }

  /// A tap hit-tester for the scene's targets behind its models, seen through its camera in a
  /// view of `viewSize` points shown in `orientation` (default: the output image itself).
  public func tapHitTester(
    viewSize: SIMD2<Double>? = nil, orientation: InterfaceOrientation = .landscapeRight
  ) throws(HitError) -> TapHitTester {
    let size = viewSize ?? SIMD2(Double(camera.intrinsics.width), Double(camera.intrinsics.height))
    let taps = try TapCamera(camera: camera, viewSize: size, orientation: orientation)
    let targets = self.targets.map {
      TapTarget(name: $0.code, sphere: Sphere(center: $0.center, radius: $0.radius))
    }
    return try TapHitTester(camera: taps, targets: targets, mesh: try occluder()?.hierarchy)
  }
}
