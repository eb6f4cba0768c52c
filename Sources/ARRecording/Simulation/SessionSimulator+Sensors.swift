import ARGeo
import ARMath
import RealModule

extension SessionSimulator {
  /// Where the walker truly is at a moment, and where the phone looks.
  struct TrueState {
    /// Local world (x east, y up, z south), metres.
    var position: SIMD3<Double>
    /// Local world from camera (ARKit convention).
    var rotation: Quaternion<Double>
    /// The camera's heading, radians clockwise from north.
    var heading: Double
    /// The direction of travel on the ground (east, north), unit.
    var travel: SIMD2<Double>
  }

  /// The phone's sensors along one walk: the seeded generator, the per-walk draws (odometry
  /// scale, compass bias) and the running error processes (odometry drift, the GNSS error's
  /// Gauss–Markov state, multipath jumps, dropouts, compass disturbances). Every draw comes from
  /// one generator in a fixed order, so the same seed gives the same records, bit for bit.
  struct Sensors {
    let model: PhoneErrorModel
    private var rng: SplitMix64
    private let scale: Double, compassBias: Double
    private var odometryPosition: SIMD3<Double>, odometryYaw = 0.0, previous: SIMD3<Double>
    /// The Gauss–Markov process's correlation from one fix time to the next.
    private let phi: Double
    private var markov: SIMD3<Double>
    private var multipath: (offset: SIMD2<Double>, until: Double)?
    private var dropoutUntil = -Double.infinity
    private var disturbance: (offset: Double, until: Double)?
    /// The reported horizontal accuracy's σ (white and correlated parts together), metres.
    private let horizontalSigma: Double

    /// The sensors of a walk starting at `first`, with fixes every `gpsStep` seconds.
    init(model m: PhoneErrorModel, seed: UInt64, first: TrueState, gpsStep: Double) {
      model = m
      rng = SplitMix64(seed: seed)
      scale = 1 + m.odometryScaleSigma * rng.gaussian()
      compassBias = m.headingBiasSigma * rng.gaussian()
      (odometryPosition, previous) = (first.position, first.position)
      phi = m.gpsMarkovTau > 0 ? Double.exp(-gpsStep / m.gpsMarkovTau) : 0
      markov = SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * m.gpsMarkovSigma
      markov.z *= m.gpsVerticalFactor
      horizontalSigma = (m.gpsWhiteSigma * m.gpsWhiteSigma + m.gpsMarkovSigma * m.gpsMarkovSigma).squareRoot()
    }

    /// The odometry's pose at `now` (local world): the true step since the last pose, scaled
    /// and turned by the yaw drift so far.
    mutating func odometryPose(_ now: TrueState) -> RigidTransform<Double> {
      let step = now.position - previous
      let walked = SIMD2(step.x, step.z).length
      odometryYaw += model.odometryYawDrift * .pi / 180 * walked.squareRoot() * rng.gaussian()
      let drift = Quaternion<Double>(angle: .radians(odometryYaw), axis: [0, 1, 0])
      odometryPosition += scale * drift.act(step)
      previous = now.position
      return RigidTransform(rotation: (drift * now.rotation).normalized(), translation: odometryPosition)
    }

    /// The GNSS error at fix time `time` (seconds into the walk; `first` for the walk's first
    /// fix), east, north, up in metres, with the reported accuracy's scale; nil while the
    /// receiver has dropped out. The correlated error moves on at every fix time, fix or not.
    mutating func gnssError(at time: Double, first: Bool, gpsStep: Double) -> (
      error: SIMD3<Double>, accuracy: Double
    )? {
      let m = model
      if !first {
        let innovation = (1 - phi * phi).squareRoot() * m.gpsMarkovSigma
        markov =
          phi * markov + innovation
          * SIMD3(rng.gaussian(), rng.gaussian(), m.gpsVerticalFactor * rng.gaussian())
      }
      if let jump = multipath, jump.until <= time { multipath = nil }
      if multipath == nil, Double.random(in: 0..<1, using: &rng) < m.multipathRate * gpsStep {
        let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
        let size = Double.random(in: m.multipathOffset, using: &rng)
        multipath = (
          size * SIMD2(Double.cos(angle), Double.sin(angle)),
          time + Double.random(in: m.multipathDuration, using: &rng)
        )
      }
      if time >= dropoutUntil, Double.random(in: 0..<1, using: &rng) < m.gpsDropoutRate * gpsStep {
        dropoutUntil = time + Double.random(in: m.gpsDropoutDuration, using: &rng)
      }
      let white =
        m.gpsWhiteSigma * SIMD3(rng.gaussian(), rng.gaussian(), m.gpsVerticalFactor * rng.gaussian())
      let reportedScale = max(0.5, 1 + m.accuracyScatter * rng.gaussian())
      guard time >= dropoutUntil else { return nil }
      var error = markov + white
      if let jump = multipath { error += SIMD3(jump.offset.x, jump.offset.y, 0) }
      return (error, max(1, PhoneErrorModel.radius68PerSigma * horizontalSigma * reportedScale))
    }

    /// The compass's error at `time` (seconds into the walk), degrees: its bias, noise and any
    /// disturbance (a magnet, a steel beam) under way, readings `headingStep` seconds apart.
    mutating func compassError(at time: Double, headingStep: Double) -> Double {
      let m = model
      if let d = disturbance, d.until <= time { disturbance = nil }
      if disturbance == nil, Double.random(in: 0..<1, using: &rng) < m.headingDisturbanceRate * headingStep {
        let size = Double.random(in: m.headingDisturbance, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
        disturbance = (size, time + Double.random(in: m.headingDisturbanceDuration, using: &rng))
      }
      return compassBias + m.headingNoiseSigma * rng.gaussian() + (disturbance?.offset ?? 0)
    }
  }
}
