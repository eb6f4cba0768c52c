import ARMath

/// Hit-tests taps against named targets on an occluding mesh.
public struct TapHitTester: Sendable {
  /// The camera and view.
  public var camera: TapCamera
  /// The targets.
  public let targets: [TapTarget]
  /// The occluding mesh, if any.
  public let mesh: BoundingVolumeHierarchy?

  /// A hit-tester; targets are validated (positive radius, finite values).
  public init(camera: TapCamera, targets: [TapTarget], mesh: BoundingVolumeHierarchy?) throws(HitError) {
    self.camera = camera
    var checked: [TapTarget] = []
    for target in targets {
      checked.append(TapTarget(name: target.name, sphere: try target.sphere.validated(name: target.name)))
    }
    self.targets = checked
    self.mesh = mesh
  }

  /// The ranked candidates of a tap at `tap` (view points) under `policy`.
  public func hitTest(tap: SIMD2<Double>, policy: TapPolicy = .standard) throws(HitError) -> TapResult {
    let ray = try camera.ray(forTap: tap)
    let meshHit = mesh?.closestHit(ray)
    let eye = ray.origin
    var candidates: [(candidate: TapCandidate, score: Double)] = []
    for target in targets {
      let center = target.sphere.center, radius = target.sphere.radius
      let projected = camera.tapPoint(forWorldPoint: center)
      let screenDistance = projected.map { ($0.point - tap).length }
      let cameraDistance = (center - eye).length
      let along = ((center - eye) * ray.direction).sum()
      let closest = (ray.point(at: along) - center).length
      var rayDistance = along
      let verdict: TapVerdict
      var score = screenDistance ?? .infinity
      switch policy {
      case .exactSphere:
        if let span = target.sphere.intersect(ray), span.exit >= 0 {
          rayDistance = max(0, span.entry)
          if let m = meshHit, m.t < rayDistance {
            verdict = .occluded(meshDistance: m.t)
          } else {
            verdict = .accepted
            score = rayDistance
          }
        } else {
          verdict = projected == nil ? .behindCamera : .missed(byMetres: closest - radius)
        }
      case .screenTolerance(let tolerance):
        if let projected, let screenDistance {
          // The sphere's radius on screen, from its depth and the focal length.
          let radiusPoints = radius / projected.depth * camera.camera.intrinsics.fx * camera.viewport.scale
          if screenDistance > tolerance + radiusPoints {
            verdict = .outsideTolerance(
              distance: screenDistance, tolerance: tolerance + radiusPoints, unit: "points")
          } else if let blocker = occluder(from: eye, to: center, radius: radius) {
            verdict = .occluded(meshDistance: blocker)
          } else {
            verdict = .accepted
            score = max(0, screenDistance - radiusPoints)
          }
        } else {
          verdict = .behindCamera
        }
      case .meshProximity(let factor):
        if let m = meshHit {
          let point = ray.point(at: m.t)
          let distance = (point - center).length
          let tolerance = factor * m.t + radius
          verdict =
            distance <= tolerance
            ? .accepted : .outsideTolerance(distance: distance, tolerance: tolerance, unit: "m")
          score = distance
        } else {
          verdict = .noMeshHit
        }
      }
      candidates.append(
        (
          TapCandidate(
            name: target.name, verdict: verdict, rayDistance: rayDistance, screenDistance: screenDistance,
            cameraDistance: cameraDistance), score
        ))
    }
    candidates.sort { x, y in
      let ax = x.candidate.verdict == .accepted, ay = y.candidate.verdict == .accepted
      if ax != ay { return ax }
      if x.score != y.score { return x.score < y.score }
      return x.candidate.name < y.candidate.name
    }
    return TapResult(candidates: candidates.map(\.candidate), meshHit: meshHit, ray: ray)
  }

  /// The distance at which the mesh blocks the view of a sphere (centre, radius) from `eye`, or
  /// nil if it is visible: the mesh must be hit before the sphere's near side.
  private func occluder(from eye: SIMD3<Double>, to center: SIMD3<Double>, radius: Double) -> Double? {
    guard let mesh, let ray = try? HitRay(origin: eye, direction: (center - eye).normalized()) else {
      return nil
    }
    let distance = (center - eye).length
    guard let hit = mesh.anyHit(ray, tMax: distance - radius) else { return nil }
    return hit.t
  }
}
