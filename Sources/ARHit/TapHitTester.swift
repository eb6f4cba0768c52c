import ARMath

/// A named thing a user can tap: a sphere in world metres (an acupressure point, a POI marker).
public struct TapTarget: Hashable, Sendable {
  /// The name reported back (e.g. `LI4`).
  public var name: String
  /// Where and how big, metres.
  public var sphere: Sphere

  /// A target.
  public init(name: String, sphere: Sphere) {
    self.name = name
    self.sphere = sphere
  }
}

/// How a tap decides which target it meant.
public enum TapPolicy: Hashable, Sendable {
  /// The tap's ray must pass through the sphere, in front of the mesh. Exact, but a 5 mm point
  /// 3 m away is 2 px across: fingers miss it and "hit the hand instead of the point".
  case exactSphere
  /// The target's centre must show within `points` of the tap on screen (plus its own projected
  /// radius) and be visible (not behind the mesh). The tolerance is on screen, so it does not
  /// shrink with distance: a finger's precision is the same near and far. Apple's guidelines ask
  /// for 44-point touch targets, hence a default of 22.
  case screenTolerance(points: Double)
  /// The fallback of the acupressure thesis: cast the tap at the mesh and take the target whose
  /// centre is nearest the mesh hit, within `factor` × the camera distance (plus its radius).
  /// The tolerance grows with distance, but targets are not checked for visibility, so points
  /// on the far side of a thin hand can be accepted (the reported false positives).
  case meshProximity(factor: Double)

  /// The default screen tolerance: half of a 44-point touch target.
  public static let standard = TapPolicy.screenTolerance(points: 22)
}

/// Why a target was accepted or rejected.
public enum TapVerdict: Hashable, Sendable {
  case accepted
  /// The ray passes the sphere by this much (metres, closest approach minus radius).
  case missed(byMetres: Double)
  /// The mesh is in front of the target at this distance along the ray (metres).
  case occluded(meshDistance: Double)
  /// The target is this far from the tap, beyond the tolerance: in points on screen, or in
  /// metres from the mesh hit for ``TapPolicy/meshProximity(factor:)`` (`unit` says which).
  case outsideTolerance(distance: Double, tolerance: Double, unit: String)
  /// The target is behind the camera.
  case behindCamera
  /// The tap ray hits no mesh, which ``TapPolicy/meshProximity(factor:)`` needs.
  case noMeshHit

  /// A short machine-readable name.
  public var code: String {
    switch self {
    case .accepted: "accepted"
    case .missed: "missed"
    case .occluded: "occluded"
    case .outsideTolerance: "outside_tolerance"
    case .behindCamera: "behind_camera"
    case .noMeshHit: "no_mesh_hit"
    }
  }

  /// A sentence for people.
  public var explanation: String {
    switch self {
    case .accepted: "accepted"
    case .missed(let m): "the tap ray passes \(formatted(m * 1000)) mm outside the sphere"
    case .occluded(let d): "hidden behind the mesh, which the ray meets at \(formatted(d)) m"
    case .outsideTolerance(let d, let tolerance, let unit):
      "\(formatted(d)) \(unit) from the tap, beyond the tolerance of \(formatted(tolerance)) \(unit)"
    case .behindCamera: "behind the camera"
    case .noMeshHit: "the tap ray hits no mesh"
    }
  }
}

private func formatted(_ x: Double) -> String {
  let r = (x * 1000).rounded() / 1000
  return "\(r)"
}

/// One target as a tap saw it.
public struct TapCandidate: Hashable, Sendable {
  /// The target's name.
  public var name: String
  /// Accepted, or why not.
  public var verdict: TapVerdict
  /// Distance along the tap ray to the target (sphere entry, or closest approach when missed),
  /// metres.
  public var rayDistance: Double
  /// Distance on screen from the tap to the target's projected centre, points (nil if behind).
  public var screenDistance: Double?
  /// The target's distance from the camera, metres.
  public var cameraDistance: Double
}

/// What a tap hit.
public struct TapResult: Hashable, Sendable {
  /// The accepted target ranked first, if any.
  public var best: String? { candidates.first { $0.verdict == .accepted }?.name }
  /// Every target, accepted ones first (best first), then the rejected by screen distance.
  public var candidates: [TapCandidate]
  /// Where the tap ray meets the mesh, if it does.
  public var meshHit: MeshHit?
  /// The tap ray.
  public var ray: HitRay
}

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
