import ARGeo
import ARMath
import RealModule

/// The least-squares problem behind ``ControlAlignmentFit``: parameters θ = (yaw in radians,
/// origin east, north, up in metres), two residuals a sighting (its reprojection error over its
/// σ, pixels/pixels).
struct ControlFitProblem {
  let sightings: [ControlSighting]
  /// Each sighting's camera from session (the inverse of its pose), computed once.
  private let cameraFromSession: [RigidTransform<Double>]

  init(sightings: [ControlSighting]) {
    self.sightings = sightings
    cameraFromSession = sightings.map(\.sessionFromCamera.inverse)
  }

  static func parameters(_ a: SessionAlignment) -> SIMD4<Double> {
    SIMD4(a.yaw.radians, a.originENU.x, a.originENU.y, a.originENU.z)
  }

  static func alignment(_ theta: SIMD4<Double>) -> SessionAlignment {
    SessionAlignment(yaw: .radians(theta[0]), originENU: SIMD3(theta[1], theta[2], theta[3]))
  }

  /// Every sighting's normalised residual at θ (nil for a point behind its camera) and its σ
  /// in pixels.
  func residuals(_ theta: SIMD4<Double>) -> [(residual: SIMD2<Double>, sigma: Double)?] {
    let sessionFromWorld = Self.alignment(theta).geoWorldFromSession.inverse
    return sightings.indices.map { i in
      let s = sightings[i]
      let camera = cameraFromSession[i].transformPoint(sessionFromWorld.transformPoint(s.world))
      guard camera.z < -1e-6 else { return nil }
      let k = s.intrinsics
      let predicted = SIMD2(k.fx * camera.x / -camera.z + k.cx, -k.fy * camera.y / -camera.z + k.cy)
      let survey = Swift.max(k.fx, k.fy) * s.worldSigma / Swift.max(camera.length, 0.01)
      let sigma = (s.observation.sigmaPixels * s.observation.sigmaPixels + survey * survey).squareRoot()
      return ((predicted - s.observation.pixel) / sigma, sigma)
    }
  }

  /// The best starting point: `start` refined, when it then explains most sightings (their
  /// median residual within 3σ); else the lowest robust cost among a 5° grid of yaws (each with
  /// its least-squares translation) and `start`.
  func bestStart(including start: SessionAlignment?) -> SIMD4<Double> {
    let prior = start.map { iterate(from: Self.parameters($0), huber: 2, iterations: 10) }
    if let prior {
      let sorted = residuals(prior).map { $0?.residual.length ?? .infinity }.sorted()
      if sorted[sorted.count / 2] <= 3 { return prior }
    }
    var candidates = (0..<72).compactMap { k in translationFit(yaw: Double(k) * 5 * .pi / 180) }
    if let prior { candidates.append(prior) }
    return candidates.min { robustCost($0) < robustCost($1) } ?? .zero
  }

  /// For a yaw, the origin that brings every viewing ray closest to its point: with the rays
  /// turned into the world (origin c, unit direction e), minimise Σ |P (X − R c − t)|², P the
  /// projection across the ray, over t.
  func translationFit(yaw: Double) -> SIMD4<Double>? {
    let rotation = WorldFrame.rotation(heading: .radians(yaw))
    var a = Matrix3<Double>.zero
    var b = SIMD3<Double>.zero
    for s in sightings {
      let ray = s.sessionRay
      let e = rotation.act(ray.direction)
      let target = s.world - rotation.act(ray.origin)
      let across = Matrix3<Double>.identity - Matrix3(e * e.x, e * e.y, e * e.z)
      a = a + across
      b += across * target
    }
    guard let inverse = a.inverse else { return nil }
    let t = WorldFrame.enu(world: inverse * b)
    return SIMD4(yaw, t.x, t.y, t.z)
  }

  /// Σ of Huber's ρ (k = 2) over the sightings; a point behind the camera costs as a 10σ miss.
  func robustCost(_ theta: SIMD4<Double>) -> Double {
    residuals(theta).reduce(0) { sum, r in
      let x = r?.residual.length ?? 10
      return sum + (x <= 2 ? x * x / 2 : 2 * (x - 1))
    }
  }

  /// Gauss–Newton from θ, each sighting weighted by Huber's weight at its residual (every one
  /// the same when `huber` is nil); sightings behind the camera sit out the step.
  func iterate(from start: SIMD4<Double>, huber: Double?, iterations: Int) -> SIMD4<Double> {
    var theta = start
    for _ in 0..<iterations {
      guard let normal = normalMatrix(at: theta, huber: huber),
        let step = normal.matrix.solve(normal.gradient.map { -$0 })
      else { break }
      let delta = SIMD4(step[0], step[1], step[2], step[3])
      theta += delta
      // Converged: a step of under a microradian and a hundredth of a millimetre.
      if abs(delta[0]) < 1e-6 && (delta * delta).sum() - delta[0] * delta[0] < 1e-10 { break }
    }
    return theta
  }

  /// The indices of the sightings within `limit` σ of θ's prediction.
  func inliers(at theta: SIMD4<Double>, within limit: Double) -> [Int] {
    let all = residuals(theta)
    return all.indices.filter { i in all[i].map { $0.residual.length <= limit } ?? false }
  }

  /// JᵀWJ and JᵀWr at θ, the unweighted χ² and the RMS reprojection error in pixels; nil when
  /// no sighting is in front of its camera. Each σ is held fixed in the derivatives (its survey
  /// part changes with depth, far too slowly to matter).
  func normalMatrix(at theta: SIMD4<Double>, huber: Double? = nil) -> (
    matrix: DenseMatrix<Double>, gradient: [Double], chiSquare: Double, pixelRMS: Double
  )? {
    let sessionFromWorld = Self.alignment(theta).geoWorldFromSession.inverse
    var h = DenseMatrix<Double>(rows: 4, columns: 4)
    var g = [Double](repeating: 0, count: 4)
    var chi = 0.0, pixels = 0.0, count = 0
    for (i, s) in sightings.enumerated() {
      let session = sessionFromWorld.transformPoint(s.world)
      let toCamera = cameraFromSession[i]
      let camera = toCamera.transformPoint(session)
      guard camera.z < -1e-6 else { continue }
      let k = s.intrinsics
      let depth = -camera.z
      let predicted = SIMD2(k.fx * camera.x / depth + k.cx, -k.fy * camera.y / depth + k.cy)
      let survey = Swift.max(k.fx, k.fy) * s.worldSigma / Swift.max(camera.length, 0.01)
      let sigma = (s.observation.sigmaPixels * s.observation.sigmaPixels + survey * survey).squareRoot()
      let r = (predicted - s.observation.pixel) / sigma
      // The session point's derivatives: turning by the yaw moves it by (z, 0, −x); the origin
      // (east, north, up = world x, −z, y) moves it by −Rᵀ of that world axis.
      let back = sessionFromWorld.rotation
      let dSession: [SIMD3<Double>] = [
        SIMD3(session.z, 0, -session.x), -back.act([1, 0, 0]), -back.act([0, 0, -1]), -back.act([0, 1, 0]),
      ]
      var jacobian: [SIMD2<Double>] = []
      for d in dSession {
        let dc = toCamera.rotation.act(d)
        let du = k.fx * (dc.x / depth + camera.x * dc.z / (depth * depth))
        let dv = -k.fy * (dc.y / depth + camera.y * dc.z / (depth * depth))
        jacobian.append(SIMD2(du, dv) / sigma)
      }
      let norm = r.length
      let w = huber.map { norm <= $0 ? 1 : $0 / norm } ?? 1
      for a in 0..<4 {
        g[a] += w * (jacobian[a] * r).sum()
        for b in 0..<4 { h[a, b] += w * (jacobian[a] * jacobian[b]).sum() }
      }
      chi += norm * norm
      pixels += norm * norm * sigma * sigma
      count += 1
    }
    guard count > 0 else { return nil }
    return (h, g, chi, (pixels / Double(count)).squareRoot())
  }
}
