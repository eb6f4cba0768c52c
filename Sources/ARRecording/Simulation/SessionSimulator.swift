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
  /// The site walked: its frame, anchors and the session's true alignment.
  public var site: GeoSite
  /// The route walked.
  public var path: WalkPath
  /// How the phone's sensors err.
  public var model: PhoneErrorModel
  /// Seeds every random draw: the same seed gives the same records.
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
      source: "simulate", timeBase: .unix,
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
    let m = model
    let declination = try siteDeclination()
    let anchors = site.anchorPositions.map { SIMD2($0.x, $0.y) }
    let steps = Int((duration * m.poseRate).rounded(.down))
    func every(_ rate: Double) -> Int { max(1, Int((m.poseRate / rate).rounded())) }
    let (gpsEvery, headingEvery, frameEvery) = (every(m.gpsRate), every(m.headingRate), every(m.frameRate))
    let (gpsStep, headingStep) = (Double(gpsEvery) / m.poseRate, Double(headingEvery) / m.poseRate)
    let first = truth(at: 0, anchors: anchors)
    var sensors = Sensors(model: m, seed: seed, first: first, gpsStep: gpsStep)
    // The session's world: origin at the first camera position, −Z along its first heading.
    let localFromSession = RigidTransform(
      rotation: WorldFrame.rotation(heading: .radians(first.heading)), translation: first.position)
    let sessionFromLocal = localFromSession.inverse
    var geoRandom = SplitMix64(seed: seed ^ 0x6765_6F70_6F73_6531)  // "geopose1": its own stream

    for k in 0...steps {
      let time = Double(k) / m.poseRate
      let t = Self.startTime + time
      let now = truth(at: time, anchors: anchors)
      try emit(
        .pose(CameraPoseSample(time: t, worldFromCamera: sessionFromLocal * sensors.odometryPose(now))))
      if k % frameEvery == 0 {
        var sample = CameraFrameSample(
          time: t, index: k / frameEvery, intrinsics: m.intrinsics, imageSize: m.imageSize)
        if let picture {
          sample = picture(sample, RigidTransform(rotation: now.rotation, translation: now.position))
        }
        try emit(.frame(sample))
      }
      if k % gpsEvery == 0, let reading = sensors.gnssError(at: time, first: k == 0, gpsStep: gpsStep) {
        try emit(.gps(fix(now, error: reading.error, accuracy: reading.accuracy, time: t)))
      }
      if k % headingEvery == 0 {
        let trueReading = Self.wrapDegrees(
          now.heading * 180 / .pi + sensors.compassError(at: time, headingStep: headingStep))
        try emit(
          .heading(
            HeadingSample(
              time: t, trueHeadingDegrees: trueReading,
              magneticHeadingDegrees: Self.wrapDegrees(trueReading - declination.degrees),
              accuracyDegrees: m.headingReportedAccuracy)))
      }
      if k % frameEvery == 0 {
        try emit(.truth(truthSample(now, time: t, localFromSession: k == 0 ? localFromSession : nil)))
        if let optimism = m.geoPoseOptimism {
          try emit(.geoPose(geoPose(now, time: t, optimism: optimism, random: &geoRandom)))
        }
      }
    }
  }

  /// The magnetic declination at the site on ``startTime``'s date (WMM2025).
  private func siteDeclination() throws(RecordingError) -> Angle<Double> {
    do {
      return try MagneticModel.wmm2025.declination(
        at: site.frame.origin, decimalYear: MagneticModel.decimalYear(secondsSince1970: Self.startTime))
    } catch { throw .unknownFormat(path: "scene", reason: "no magnetic declination at the site: \(error)") }
  }

  /// The true camera at `time` seconds into the walk: on the path at the walking speed, at the
  /// device's height, looking at the nearest of `anchors` (east, north; ahead when closer than
  /// 2 m) with a little sway and a slight downward tilt.
  private func truth(at time: Double, anchors: [SIMD2<Double>]) -> TrueState {
    let (p, direction) = path.position(after: model.walkingSpeed * time)
    let target = anchors.min { ($0 - p).lengthSquared < ($1 - p).lengthSquared }
    var look = target.map { $0 - p } ?? direction
    if look.length < 2 { look = direction }
    let heading = Double.atan2(y: look.x, x: look.y) + 0.05 * Double.sin(0.4 * time)
    let pitch = (-8 + 2 * Double.sin(0.7 * time)) * .pi / 180
    let rotation =
      WorldFrame.rotation(heading: .radians(heading)) * Quaternion(angle: .radians(pitch), axis: [1, 0, 0])
    return TrueState(
      position: WorldFrame.world(enu: [p.x, p.y, model.deviceHeight]), rotation: rotation, heading: heading,
      travel: direction)
  }

  /// The fix a receiver reports at `now` with `error` (east, north, up, metres) and horizontal
  /// `accuracy` (metres, 68%).
  private func fix(_ now: TrueState, error: SIMD3<Double>, accuracy: Double, time: Double) -> GPSFix {
    let measured = site.frame.geodetic(enu: WorldFrame.enu(world: now.position) + error)
    let course = (Double.atan2(y: now.travel.x, x: now.travel.y) * 180 / .pi + 360).truncatingRemainder(
      dividingBy: 360)
    return GPSFix(
      time: time, latitude: measured.latitudeDegrees, longitude: measured.longitudeDegrees,
      height: measured.height,
      horizontalAccuracy: accuracy,
      verticalAccuracy: model.gpsVerticalFactor * accuracy / PhoneErrorModel.radius68PerSigma,
      courseDegrees: course < 360 ? course : 0, speed: model.walkingSpeed)
  }

  /// The truth at `now`, in the local frame at the camera's own position; the first also says
  /// how the session's world lies in it (`localFromSession`).
  private func truthSample(_ now: TrueState, time: Double, localFromSession: RigidTransform<Double>?)
    -> GroundTruthSample
  {
    let coordinate = site.frame.geodetic(enu: WorldFrame.enu(world: now.position))
    let here = site.frame.worldRotation(to: coordinate)
    return GroundTruthSample(
      time: time, latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees,
      height: coordinate.height, localFromCamera: (here * now.rotation).normalized(),
      localFromWorld: localFromSession.map {
        RigidTransform(rotation: here * $0.rotation, translation: .zero)
      })
  }

  /// Degrees wrapped into [0, 360).
  static func wrapDegrees(_ x: Double) -> Double {
    let r = x.truncatingRemainder(dividingBy: 360)
    let w = r < 0 ? r + 360 : r
    return w < 360 ? w : 0
  }
}
