import ARGeo
import ARMath
import RealModule

/// Simulates a phone's AR session on a walk through a site, with the truth: what
/// `arscene simulate` writes. The phone's errors follow a ``PhoneErrorModel``; everything is
/// drawn from one seeded generator, so the same inputs give the same records, bit for bit.
///
/// The walker carries the phone at ``PhoneErrorModel/deviceHeight`` along a ``WalkPath``,
/// pointing the camera at the nearest anchor (with a little sway and a slight downward tilt).
/// The session's world frame is where ARKit puts it with `.gravity` alignment: origin at the
/// camera's first position, −Z along its first heading. The odometry drifts in scale and yaw;
/// GNSS fixes wander (white noise plus a Gauss–Markov process), jump with multipath and drop
/// out; the compass has a bias, noise and disturbances. Poses, frames, fixes, headings and
/// truth all lie on one clock at the pose rate, starting at ``startTime``.
public struct SessionSimulator: Sendable {
  public var site: GeoSite
  public var path: WalkPath
  public var model: PhoneErrorModel
  public var seed: UInt64
  /// Seconds.
  public var duration: Double
  /// The first record's time: 2026-06-01T00:00:00Z, seconds since 1970 (`time_base` `unix`).
  public static let startTime = 1_780_272_000.0

  /// A simulation; ``run(picture:_:)`` draws it.
  public init(
    site: GeoSite, path: WalkPath, model: PhoneErrorModel = PhoneErrorModel(), seed: UInt64, duration: Double
  ) {
    self.site = site
    self.path = path
    self.model = model
    self.seed = seed
    self.duration = duration
  }

  /// The header `arscene simulate` writes.
  public var header: RecordingHeader {
    RecordingHeader(
      source: "simulate", timeBase: "unix",
      description:
        "arscene simulate: seed \(seed), \(duration) s, \(path.closed ? "a loop" : "a path") of \(Int(path.length.rounded())) m"
    )
  }

  /// Calls `emit` with every record in time order. With `picture`, each frame record is first
  /// handed to it with the camera's true pose (world from camera, ARKit convention, in the local
  /// world at the site's origin: x east, y up, z south), to gain what the camera saw (an image,
  /// a depth image).
  public func run(
    picture: ((CameraFrameSample, RigidTransform<Double>) -> CameraFrameSample)? = nil,
    _ emit: (RecordingRecord) throws(RecordingError) -> Void
  ) throws(RecordingError) {
    var rng = SplitMix64(seed: seed)
    let m = model
    let frame = site.frame
    let anchors = site.anchorPositions.map { SIMD2($0.x, $0.y) }
    let declination: Angle<Double>
    do {
      declination = try MagneticModel.wmm2025.declination(
        at: frame.origin, decimalYear: MagneticModel.decimalYear(secondsSince1970: Self.startTime))
    } catch { throw .unknownFormat(path: "scene", reason: "no magnetic declination at the site: \(error)") }

    // The true camera: position (local world: x east, y up, z south) and orientation.
    func truth(at time: Double) -> (
      position: SIMD3<Double>, rotation: Quaternion<Double>, heading: Double, travel: SIMD2<Double>
    ) {
      let (p, direction) = path.position(after: m.walkingSpeed * time)
      let target = anchors.min { ($0 - p).lengthSquared < ($1 - p).lengthSquared }
      var look = target.map { $0 - p } ?? direction
      if look.length < 2 { look = direction }  // too close to look at: ahead
      let heading = Double.atan2(y: look.x, x: look.y) + 0.05 * Double.sin(0.4 * time)
      let pitch = (-8 + 2 * Double.sin(0.7 * time)) * .pi / 180
      let rotation =
        WorldFrame.rotation(heading: .radians(heading)) * Quaternion(angle: .radians(pitch), axis: [1, 0, 0])
      let position = WorldFrame.world(enu: [p.x, p.y, m.deviceHeight])
      return (position, rotation, heading, direction)
    }

    let steps = Int((duration * m.poseRate).rounded(.down))
    func every(_ rate: Double) -> Int { max(1, Int((m.poseRate / rate).rounded())) }
    let (gpsEvery, headingEvery, frameEvery) = (every(m.gpsRate), every(m.headingRate), every(m.frameRate))
    let gpsStep = Double(gpsEvery) / m.poseRate

    // Per-walk draws.
    let scale = 1 + m.odometryScaleSigma * rng.gaussian()
    let compassBias = m.headingBiasSigma * rng.gaussian()
    let first = truth(at: 0)
    let localFromSession = RigidTransform(
      rotation: WorldFrame.rotation(heading: .radians(first.heading)), translation: first.position)
    let sessionFromLocal = localFromSession.inverse

    // Running states.
    var odometryPosition = first.position, odometryYaw = 0.0, previous = first.position
    let phi = m.gpsMarkovTau > 0 ? Double.exp(-gpsStep / m.gpsMarkovTau) : 0
    var markov = SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * m.gpsMarkovSigma
    markov.z *= m.gpsVerticalFactor
    var multipath: (offset: SIMD2<Double>, until: Double)?
    var dropoutUntil = -Double.infinity
    var disturbance: (offset: Double, until: Double)?
    let horizontalSigma = (m.gpsWhiteSigma * m.gpsWhiteSigma + m.gpsMarkovSigma * m.gpsMarkovSigma)
      .squareRoot()

    for k in 0...steps {
      let time = Double(k) / m.poseRate
      let t = Self.startTime + time
      let now = truth(at: time)

      // Odometry: the true step, scaled and turned by the yaw drift so far.
      let step = now.position - previous
      let walked = SIMD2(step.x, step.z).length
      odometryYaw += m.odometryYawDrift * .pi / 180 * walked.squareRoot() * rng.gaussian()
      let drift = Quaternion<Double>(angle: .radians(odometryYaw), axis: [0, 1, 0])
      odometryPosition += scale * drift.act(step)
      previous = now.position
      let estimated = RigidTransform(
        rotation: (drift * now.rotation).normalized(), translation: odometryPosition)
      try emit(.pose(CameraPoseSample(time: t, worldFromCamera: sessionFromLocal * estimated)))

      if k % frameEvery == 0 {
        var sample = CameraFrameSample(
          time: t, index: k / frameEvery, intrinsics: m.intrinsics, imageSize: m.imageSize)
        if let picture {
          sample = picture(sample, RigidTransform(rotation: now.rotation, translation: now.position))
        }
        try emit(.frame(sample))
      }

      if k % gpsEvery == 0 {
        // The correlated error moves on every fix time, whether or not a fix comes out.
        if k > 0 {
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
        if time >= dropoutUntil {
          var error = markov + white
          if let jump = multipath { error += SIMD3(jump.offset.x, jump.offset.y, 0) }
          let enu = WorldFrame.enu(world: now.position)
          let measured = frame.geodetic(enu: enu + error)
          let accuracy = max(1, PhoneErrorModel.radius68PerSigma * horizontalSigma * reportedScale)
          let course = (Double.atan2(y: now.travel.x, x: now.travel.y) * 180 / .pi + 360).truncatingRemainder(
            dividingBy: 360)
          try emit(
            .gps(
              GPSFix(
                time: t, latitude: measured.latitudeDegrees, longitude: measured.longitudeDegrees,
                height: measured.height,
                horizontalAccuracy: accuracy,
                verticalAccuracy: m.gpsVerticalFactor * accuracy / PhoneErrorModel.radius68PerSigma,
                courseDegrees: course < 360 ? course : 0, speed: m.walkingSpeed)))
        }
      }

      if k % headingEvery == 0 {
        let headingStep = Double(headingEvery) / m.poseRate
        if let d = disturbance, d.until <= time { disturbance = nil }
        if disturbance == nil, Double.random(in: 0..<1, using: &rng) < m.headingDisturbanceRate * headingStep
        {
          let size =
            Double.random(in: m.headingDisturbance, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
          disturbance = (size, time + Double.random(in: m.headingDisturbanceDuration, using: &rng))
        }
        let error = compassBias + m.headingNoiseSigma * rng.gaussian() + (disturbance?.offset ?? 0)
        let trueReading = Self.wrapDegrees(now.heading * 180 / .pi + error)
        try emit(
          .heading(
            HeadingSample(
              time: t, trueHeadingDegrees: trueReading,
              magneticHeadingDegrees: Self.wrapDegrees(trueReading - declination.degrees),
              accuracyDegrees: m.headingReportedAccuracy)))
      }

      if k % frameEvery == 0 {
        // The truth, in the local frame at the camera's own position.
        let enu = WorldFrame.enu(world: now.position)
        let coordinate = frame.geodetic(enu: enu)
        let here = Self.localTurn(from: frame, to: coordinate)
        try emit(
          .truth(
            GroundTruthSample(
              time: t, latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees,
              height: coordinate.height, localFromCamera: (here * now.rotation).normalized(),
              localFromWorld: k == 0
                ? RigidTransform(rotation: here * localFromSession.rotation, translation: .zero) : nil)))
      }
    }
  }

  /// Degrees wrapped into [0, 360).
  static func wrapDegrees(_ x: Double) -> Double {
    let r = x.truncatingRemainder(dividingBy: 360)
    let w = r < 0 ? r + 360 : r
    return w < 360 ? w : 0
  }

  /// The rotation from the local world frame (x east, y up, z south) at `frame`'s origin to the
  /// one at `position`: the meridian convergence and the tilt of the vertical between them.
  static func localTurn(from frame: LocalTangentFrame, to position: GeodeticCoordinate) -> Quaternion<Double>
  {
    guard let there = try? LocalTangentFrame(origin: position, ellipsoid: frame.ellipsoid) else {
      return .identity
    }
    // Columns: the origin frame's world axes (east, up, south) seen in the frame at `position`.
    func seen(_ enuDirection: SIMD3<Double>) -> SIMD3<Double> {
      let ecef = frame.ecefDirection(enu: enuDirection)
      return WorldFrame.world(enu: there.enu(ecef: there.originECEF + ecef))
    }
    let m = Matrix3(seen([1, 0, 0]), seen([0, 0, 1]), seen([0, -1, 0]))
    return RigidTransform<Double>(rotationMatrix: m, translation: .zero).rotation
  }
}
