import ARGeo
import ARMath
import RealModule

/// Replays a recording as an app would and measures where its geo-anchored content landed:
/// what `arscene validate` runs.
///
/// The app's side is an ``AppSessionAlignment`` (the same one `arscene render --recording`
/// places content with): each GPS fix, paired with the camera's session position at that time,
/// and each compass reading go to ARGeo's `FusedSessionAligner`, and each anchor is placed in
/// the session with the alignment so far, its claimed uncertainty the alignment's (widened for
/// the GNSS errors' correlation in time). What the validator assumes of the phone (τ, how much
/// of the error is correlated, the compass's bias) is a ``PhoneErrorModel``: the same documented
/// defaults `arscene simulate` draws from.
/// For comparison, each anchor is also placed the way a simple app does: from the latest fix
/// and the latest compass heading alone.
///
/// The truth's side (when the recording has it): the camera's true pose at a time and its
/// session pose give where the session frame truly was then, so where the app drew each anchor
/// is known in the world; the error is its distance from the anchor's true place. Errors are
/// evaluated at each GPS fix that has truth and a pose within ``pairingTolerance``; the image
/// error at each frame that sees the anchor.
public struct AnchorValidator {
  /// The site: its frame, anchors, control points and the scene's alignment.
  public let site: GeoSite
  /// What the phone's errors are taken to be: ``PhoneErrorModel/gpsMarkovTau`` and the share of
  /// the GNSS variance that is correlated (``PhoneErrorModel/gpsMarkovSigma`` against
  /// ``PhoneErrorModel/gpsWhiteSigma``) widen the claimed uncertainty;
  /// ``PhoneErrorModel/headingBiasSigma`` is what the compass's yaw is trusted to.
  public var assumptions: PhoneErrorModel { didSet { app.assume(assumptions) } }
  /// How far apart in time a pose and a fix (or truth) may be to be paired, seconds.
  public var pairingTolerance: Double {
    get { app.pairingTolerance }
    set { app.pairingTolerance = newValue }
  }
  /// The app's side: the records as the app takes them, and the alignment it fuses.
  public private(set) var app: AppSessionAlignment
  /// Where the session truly sat by the control points seen in the recording: the truth errors
  /// are measured against when the recording has none of its own.
  public var control: ControlTruth?
  /// The latest control fit, for the whole second it was made in (the odometry drifts over
  /// tens of seconds, not within one).
  private var controlFit: (second: Double, fit: ControlAlignmentFit?)?
  private var controlEvaluations = 0

  private var firstTime: Double?
  /// The session's duration, distance and extent, from its poses.
  private var session = SessionExtent()
  /// The first frame's image size the jitter was measured at, and where it came from.
  private var frameSize: ValidationReport.FrameSize?
  private var lastFrame: CameraFrameSample?
  private var lastTruth: (time: Double, worldFromCamera: RigidTransform<Double>)?
  /// Seconds over which compass readings are averaged (`FusedSessionAligner.compassMemory`).
  public var compassMemory: Double {
    get { app.fusion.compassMemory }
    set { app.configure { $0.compassMemory = newValue } }
  }
  private var fixCount = 0, records = 0
  private var fixErrors: [Double] = [], fixesWithin = 0
  private let anchorENU: [SIMD3<Double>]
  private let anchorWorld: [SIMD3<Double>]
  private var perAnchor: [Accumulator]
  private var diagnostics: SessionDiagnostics
  private var lastFusedTrackTime = -Double.infinity
  private var timeline: [ValidationReport.TimelinePoint] = []
  private var truthTrack: [ValidationReport.GroundPoint] = [],
    fusedTrack: [ValidationReport.GroundCircle] = []
  private var fixTrack: [ValidationReport.GroundCircle] = []
  private var lastTrackTime = -Double.infinity
  /// The platform's geo poses against the truth.
  private var geoPoses: GeoPoseAudit
  /// Measure anchor drift against the validator's own truth (simulation or control), placing
  /// anchors so (nil: not measured; a truth track is measured by ``TrackDrift``).
  public var driftPlacement: DriftPlacement?
  private var driftPairs = DriftPairs()
  private var trajectoryPairs: (truth: Trajectory, fused: [(Double, RigidTransform<Double>)]) = (
    Trajectory(timestamps: [], poses: []), []
  )

  private struct Accumulator {
    var errors: [Double] = [], sigmas: [Double] = [], raw: [Double] = [], vertical: [Double] = []
    var headings: [Double] = [], reprojection: [Double] = [], truthSigmas: [Double] = []
    var within1 = 0, within3 = 0
  }

  /// A validator for recordings made at `site` by a phone whose errors are like `assumptions`,
  /// measured against the recording's truth or else against `control`.
  public init(site: GeoSite, assumptions: PhoneErrorModel = PhoneErrorModel(), control: ControlTruth? = nil) {
    self.site = site
    self.assumptions = assumptions
    app = AppSessionAlignment(frame: site.frame, assumptions: assumptions)
    self.control = control
    anchorENU = site.anchorPositions
    anchorWorld = anchorENU.map(WorldFrame.world(enu:))
    perAnchor = Array(repeating: Accumulator(), count: site.anchors.count)
    diagnostics = SessionDiagnostics(anchorCount: site.anchors.count)
    geoPoses = GeoPoseAudit(frame: site.frame, pairingTolerance: app.pairingTolerance)
  }

  /// Records of the current time, processed together once time moves on.
  private var group: [RecordingRecord] = []

  /// Validates the whole of `reader`, calling `progress` with the fraction read every 8192
  /// records.
  public static func validate(
    _ reader: RecordingReader, site: GeoSite, assumptions: PhoneErrorModel = PhoneErrorModel(),
    control: ControlTruth? = nil, drift: DriftPlacement? = nil, progress: ((Double) -> Void)? = nil
  ) throws(RecordingError) -> ValidationReport {
    var validator = AnchorValidator(site: site, assumptions: assumptions, control: control)
    validator.driftPlacement = drift
    var count = 0
    try reader.forEach { record in
      validator.consume(record)
      count += 1
      if count & 0x1FFF == 0 { progress?(reader.fractionRead) }
    }
    progress?(1)
    return validator.report(source: reader.header.source, skipped: reader.skipped)
  }

  /// Feeds one record (in time order). Records of one instant are taken together, in an order
  /// that does not depend on the file's: poses and truth first, then compass, fixes and frames.
  public mutating func consume(_ record: RecordingRecord) {
    records += 1
    if firstTime == nil { firstTime = record.time }
    if let current = group.first?.time, record.time != current { flush() }
    group.append(record)
  }

  private mutating func flush() {
    RecordingStream.inSameInstantOrder(group) { process($0) }
    group.removeAll(keepingCapacity: true)
  }

  private mutating func process(_ record: RecordingRecord) {
    switch record {
    case .pose(let pose):
      app.take(pose)
      trackFused(pose)
      session.take(pose.worldFromCamera.translation, at: pose.time)
    case .frame(let frame):
      lastFrame = frame
      evaluateImage(at: frame)
      measureJitter(at: frame)
      if driftPlacement != nil, let pose = lastPose, let truth = trueWorldFromSession(at: frame.time) {
        driftPairs.take(
          time: frame.time, app: pose.worldFromCamera, truth: truth.worldFromSession * pose.worldFromCamera,
          frame: frame)
      }
    case .truth(let truth):
      take(truth)
      geoPoses.take(truth)
    case .geoPose(let pose): geoPoses.take(pose)
    case .heading(let h):
      // Against the fixes' yaw alone, which owes nothing to the compass.
      if let compass = app.take(h), let gps = compass.gpsEstimate {
        diagnostics.compass(yaw: compass.yaw, against: gps, compassSigma: app.fusion.compassSigma)
      }
    case .gps(let fix): take(fix)
    case .magnetometer, .accelerometer, .gyroscope, .tap: break
    }
  }

  // MARK: The app's side

  /// Where the session frame sits in the site's ENU frame by the records consumed so far, as
  /// the app would have it (nil until enough fixes have arrived): ``AppSessionAlignment/alignment``.
  public var appAlignment: SessionAlignment? { app.alignment }

  /// The fused alignment now (`FusedSessionAligner.estimate`).
  private var fused: SessionAlignmentEstimate? { app.fusion.estimate }

  /// Whether fixes that jump away from the odometry (multipath) are left out.
  public var detectsJumps: Bool {
    get { app.fusion.detectsJumps }
    set { app.configure { $0.detectsJumps = newValue } }
  }
  /// Fixes left out as multipath jumps.
  public var jumpsSkipped: Int { app.fusion.jumpsSkipped }

  /// The latest camera pose.
  private var lastPose: CameraPoseSample? { app.lastPose }

  private mutating func take(_ fix: GPSFix) {
    fixCount += 1
    guard let observed = app.take(fix) else { return }
    let (enu, position, pose) = (observed.enu, observed.sessionPosition, observed.pose)
    diagnostics.fix(
      enu: enu, sessionPosition: position, sigma: observed.sigma, prediction: observed.prediction,
      accepted: observed.accepted)
    fixTrack.append(.init(.init(east: enu.x, north: enu.y), radius: fix.horizontalAccuracy))

    // The simple app: the latest fix and compass heading alone.
    var raw: SessionAlignment?
    if let compass = app.lastCompass, abs(compass.time - fix.time) <= 1,
      let sessionHeading = WorldFrame.heading(
        ofWorldDirection: pose.worldFromCamera.rotation.act([0, 0, -1]))
    {
      let yaw = Angle<Double>.degrees(compass.trueHeading) - sessionHeading
      let turned = WorldFrame.enu(world: WorldFrame.rotation(heading: yaw).act(position))
      raw = SessionAlignment(yaw: yaw, originENU: enu - turned)
    }
    // The alignment after this fix, once: where it places each anchor (always), and how far that
    // is from the anchor (with truth); without an error to report, the timeline gets the σ alone.
    guard let estimate = fused else { return evaluateFix(fix, fixENU: enu) }
    let placed = placeAnchors(with: estimate)
    guard !evaluatePlacement(at: fix, fixENU: enu, raw: raw, estimate: estimate, placed: placed) else {
      return
    }
    for (i, p) in placed.enumerated() {
      timeline.append(
        ValidationReport.TimelinePoint(
          t: fix.time - (firstTime ?? fix.time), anchor: i, error: nil, sigma: p.sigma))
    }
  }

  // MARK: The truth's side

  private mutating func take(_ truth: GroundTruthSample) {
    let coordinate = GeodeticCoordinate(
      latitudeDegrees: truth.latitude, longitudeDegrees: truth.longitude, height: truth.height)
    let turn = site.frame.worldRotation(to: coordinate)
    let rotation = (turn.conjugate * truth.localFromCamera).normalized()
    let world = RigidTransform(
      rotation: rotation, translation: WorldFrame.world(enu: site.frame.enu(coordinate)))
    lastTruth = (truth.time, world)
    // The tracks and the trajectory pairs keep one truth record a second: what a map and the
    // APE need, and memory that grows by bytes a second rather than with the record rate.
    guard truth.time >= lastTrackTime + 1 else { return }
    lastTrackTime = truth.time
    let enu = WorldFrame.enu(world: world.translation)
    truthTrack.append(.init(east: enu.x, north: enu.y))
    if let pose = lastPose, abs(pose.time - truth.time) <= pairingTolerance, let estimate = fused {
      let placed = estimate.alignment.geoWorldFromSession * pose.worldFromCamera
      trajectoryPairs.truth.timestamps.append(truth.time)
      trajectoryPairs.truth.poses.append(world)
      trajectoryPairs.fused.append((truth.time, placed))
    }
  }

  /// Where the session frame truly is at `time`: from the recording's truth (true camera pose
  /// times the session pose's inverse) or else from the control points' fit there (returned
  /// too, for the truth's own uncertainty).
  private mutating func trueWorldFromSession(at time: Double) -> (
    worldFromSession: RigidTransform<Double>, control: ControlAlignmentFit?
  )? {
    guard let pose = lastPose, abs(pose.time - time) <= pairingTolerance else { return nil }
    if let truth = lastTruth, abs(truth.time - time) <= pairingTolerance {
      return (truth.worldFromCamera * pose.worldFromCamera.inverse, nil)
    }
    guard let control else { return nil }
    let second = time.rounded(.down)
    if controlFit?.second != second { controlFit = (second, control.fit(at: time)) }
    return controlFit?.fit.map { ($0.alignment.geoWorldFromSession, $0) }
  }

  /// With truth at the fix: the fix's own error against it.
  private mutating func evaluateFix(_ fix: GPSFix, fixENU: SIMD3<Double>) {
    guard let pose = lastPose, let truth = trueWorldFromSession(at: fix.time) else { return }
    let trueENU = WorldFrame.enu(
      world: truth.worldFromSession.transformPoint(pose.worldFromCamera.translation))
    let fixError = SIMD2(fixENU.x - trueENU.x, fixENU.y - trueENU.y).length
    fixErrors.append(fixError)
    if fixError <= fix.horizontalAccuracy { fixesWithin += 1 }
  }

  /// With truth at the fix: the fix's error, and each anchor's where `estimate` placed it
  /// (`placed`); false when there was no truth to measure against.
  private mutating func evaluatePlacement(
    at fix: GPSFix, fixENU: SIMD3<Double>, raw: SessionAlignment?, estimate: SessionAlignmentEstimate,
    placed: [(session: SIMD3<Double>, sigma: Double)]
  ) -> Bool {
    evaluateFix(fix, fixENU: fixENU)
    guard let truth = trueWorldFromSession(at: fix.time) else { return false }
    let worldFromSession = truth.worldFromSession
    if truth.control != nil { controlEvaluations += 1 }
    for (i, anchor) in site.anchors.enumerated() {
      let (session, sigma) = placed[i]
      let shown = worldFromSession.transformPoint(session)
      let truthSigma = truth.control?.truthSigma(
        atSessionPoint: session, camera: lastPose?.worldFromCamera.translation ?? session,
        yawDrift: assumptions.odometryYawDrift * .pi / 180)
      if let truthSigma { perAnchor[i].truthSigmas.append(truthSigma) }
      let d = shown - anchorWorld[i]
      let error = SIMD2(d.x, d.z).length
      var rawError: Double?
      if let raw {
        let r = worldFromSession.transformPoint(raw.sessionPoint(enu: anchorENU[i])) - anchorWorld[i]
        let e = SIMD2(r.x, r.z).length
        rawError = e
        perAnchor[i].raw.append(e)
      }
      perAnchor[i].errors.append(error)
      perAnchor[i].sigmas.append(sigma)
      perAnchor[i].vertical.append(d.y)
      if error <= sigma { perAnchor[i].within1 += 1 }
      if error <= 3 * sigma { perAnchor[i].within3 += 1 }
      // Heading: the direction the app drew the anchor's −Z in, against the anchor's own.
      let shownForward = worldFromSession.rotation.act(
        estimate.alignment.geoWorldFromSession.inverse.rotation.act(
          WorldFrame.rotation(heading: anchor.anchor.heading).act([0, 0, -1])))
      if let heading = WorldFrame.heading(ofWorldDirection: shownForward) {
        perAnchor[i].headings.append((heading - anchor.anchor.heading).wrappedToPlusMinusPi.degrees)
      }
      timeline.append(
        ValidationReport.TimelinePoint(
          t: fix.time - (firstTime ?? fix.time), anchor: i, error: error, sigma: sigma, rawError: rawError,
          truthSigma: truthSigma))
    }
    return true
  }

  /// Where `estimate` places each anchor in the session, and the σ it claims there (a horizontal
  /// RMS radius: √2 × the per-axis σ), noted for the anchors' stability.
  private mutating func placeAnchors(with estimate: SessionAlignmentEstimate) -> [(
    session: SIMD3<Double>, sigma: Double
  )] {
    site.anchors.indices.map { i in
      let session = estimate.alignment.sessionPoint(enu: anchorENU[i])
      let sigma = 2.0.squareRoot() * estimate.horizontalSigma(atSessionPoint: session)
      diagnostics.place(i, sessionPoint: session, sigma: sigma)
      return (session, sigma)
    }
  }

  /// The fused camera track, one point a second: east, north and the alignment's σ there.
  private mutating func trackFused(_ pose: CameraPoseSample) {
    guard pose.time >= lastFusedTrackTime + 1, let estimate = fused else { return }
    lastFusedTrackTime = pose.time
    let position = pose.worldFromCamera.translation
    let enu = estimate.alignment.enu(sessionPoint: position)
    fusedTrack.append(
      .init(.init(east: enu.x, north: enu.y), radius: estimate.horizontalSigma(atSessionPoint: position)))
  }

  /// The anchors' frame-to-frame jitter at a frame with intrinsics (its size, when the
  /// recording lacks it, taken as twice the principal point).
  private mutating func measureJitter(at frame: CameraFrameSample) {
    guard let pose = lastPose, abs(pose.time - frame.time) <= pairingTolerance, let k = frame.intrinsics,
      (1...100_000).contains(k.cx), (1...100_000).contains(k.cy)
    else { return }
    let intrinsics =
      frame.cameraIntrinsics
      ?? CameraIntrinsics(
        fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: Int((2 * k.cx).rounded()),
        height: Int((2 * k.cy).rounded()))
    if frameSize == nil {
      frameSize = .init(
        width: intrinsics.width, height: intrinsics.height,
        from: frame.cameraIntrinsics == nil ? .principalPoint : .frames)
    }
    diagnostics.frame(at: frame.time, cameraFromSession: pose.worldFromCamera.inverse, intrinsics: intrinsics)
  }

  /// At a frame: the pixel distance between where the app drew each anchor it sees and where the
  /// anchor truly was in the image.
  private mutating func evaluateImage(at frame: CameraFrameSample) {
    guard let k = frame.cameraIntrinsics, let estimate = fused, let pose = lastPose,
      let worldFromSession = trueWorldFromSession(at: frame.time)?.worldFromSession
    else { return }
    let cameraFromWorld = (worldFromSession * pose.worldFromCamera).inverse
    for i in site.anchors.indices {
      let drawn = worldFromSession.transformPoint(estimate.alignment.sessionPoint(enu: anchorENU[i]))
      guard let a = k.projectARKit(cameraFromWorld.transformPoint(drawn)),
        let b = k.projectARKit(cameraFromWorld.transformPoint(anchorWorld[i])),
        (0...Double(k.width)).contains(b.x), (0...Double(k.height)).contains(b.y)
      else { continue }
      perAnchor[i].reprojection.append((a - b).length)
    }
  }

  /// The report of everything consumed.
  public mutating func report(source: String, skipped: Int) -> ValidationReport {
    flush()
    let hasSimulatedTruth = !truthTrack.isEmpty
    let hasTruth = hasSimulatedTruth || controlEvaluations > 0
    let alignment = reportedAlignment()
    let anchors = site.anchors.indices.map { anchorSummary($0) }
    var trajectory: ValidationReport.TrajectorySummary?
    if trajectoryPairs.truth.count >= 2 {
      let fused = Trajectory(
        timestamps: trajectoryPairs.fused.map(\.0), poses: trajectoryPairs.fused.map(\.1))
      if let pair = try? AlignedTrajectories(
        reference: trajectoryPairs.truth, estimate: fused, maxTimeDifference: 1e-6)
      {
        let ape = AbsolutePoseError(pair)
        let rpe = try? RelativePoseError(pair, delta: 10, unit: .metres)
        trajectory = ValidationReport.TrajectorySummary(ape: ape.statistics, rpe: rpe?.statistics)
      }
    }
    var report = ValidationReport(
      source: source, records: records, skipped: skipped, hasTruth: hasTruth,
      truthSource: hasSimulatedTruth ? .simulation : hasTruth ? .control : .none, alignment: alignment,
      control: control?.summary(evaluations: controlEvaluations), anchors: anchors,
      gps: ValidationReport.GPSSummary(
        fixes: fixCount, used: app.fusion.gpsEstimate?.fixCount ?? 0,
        rejected: app.fusion.rejectedCount + jumpsSkipped,
        withTruth: fixErrors.count,
        withinAccuracy: fixErrors.isEmpty ? nil : Double(fixesWithin) / Double(fixErrors.count),
        error: ValidationReport.Statistics(fixErrors)),
      consistency: diagnostics.consistency(), trajectory: trajectory, timeline: timeline,
      tracks: ValidationReport.Tracks(
        truth: truthTrack, fused: fusedTrack, fixes: fixTrack,
        anchors: anchorENU.map { .init(east: $0.x, north: $0.y) },
        jitter: diagnostics.anchors.indices.flatMap { i in
          diagnostics.anchors[i].jitterPerSecond.map {
            .init(time: $0.time - (firstTime ?? 0), anchor: i, pixels: $0.pixels)
          }
        },
        gpsNIS: diagnostics.gpsNIS, headingNIS: diagnostics.headingNIS))
    report.session = session.summary
    report.session?.frameSize = frameSize
    report.geoPoseClaims = geoPoses.report
    if let driftPlacement {
      report.anchorDrift = driftPairs.drift(driftPlacement, source: report.truthSource.rawValue)
    }
    return report
  }

  /// The fused alignment at the end, its yaw in (−180°, 180°]; without fixes, the site's own.
  private func reportedAlignment() -> ValidationReport.Alignment? {
    if let e = fused {
      return ValidationReport.Alignment(
        source: .init(e.yawSource), yawDeg: e.alignment.yaw.wrappedToPlusMinusPi.degrees,
        yawSigmaDeg: e.yawSigma.degrees,
        originENU: [e.alignment.originENU.x, e.alignment.originENU.y, e.alignment.originENU.z],
        centroidSigma: e.centroidSigma, fixesUsed: e.fixCount,
        fixesRejected: app.fusion.rejectedCount + jumpsSkipped)
    }
    guard let a = site.sessionAlignment else { return nil }
    return ValidationReport.Alignment(
      source: .scene, yawDeg: a.yaw.wrappedToPlusMinusPi.degrees, yawSigmaDeg: nil,
      originENU: [a.originENU.x, a.originENU.y, a.originENU.z], centroidSigma: nil, fixesUsed: 0,
      fixesRejected: app.fusion.rejectedCount + jumpsSkipped)
  }

  /// Anchor `i`: its placement and stability always, its errors when there was truth.
  private func anchorSummary(_ i: Int) -> ValidationReport.AnchorSummary {
    let a = perAnchor[i]
    let alignment = fused?.alignment ?? site.sessionAlignment
    let session = diagnostics.anchors[i].last ?? alignment?.sessionPoint(enu: anchorENU[i])
    var placement: ValidationReport.Placement?
    if let alignment, let session {
      placement = ValidationReport.Placement(site.frame.geodetic(enu: alignment.enu(sessionPoint: session)))
    }
    var summary = ValidationReport.AnchorSummary(
      name: site.anchors[i].name, placement: placement, sessionPosition: session.map { [$0.x, $0.y, $0.z] },
      stability: diagnostics.stability(i), finalSigma: diagnostics.anchors[i].sigma)
    guard let position = ValidationReport.Statistics(a.errors) else { return summary }
    let n = Double(a.errors.count)
    let rmsSigma = (a.sigmas.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
    summary.positionError = position
    summary.finalSigma = a.sigmas.last ?? summary.finalSigma
    summary.normalizedRMS = position.rms / rmsSigma
    summary.within1Sigma = Double(a.within1) / n
    summary.within3Sigma = Double(a.within3) / n
    summary.verticalError = ValidationReport.Statistics(a.vertical.map(abs))
    summary.headingError = ValidationReport.Statistics(a.headings.map(abs))
    summary.reprojectionError = ValidationReport.Statistics(a.reprojection)
    summary.rawPositionError = ValidationReport.Statistics(a.raw)
    summary.truthSigma = ValidationReport.Statistics(a.truthSigmas)
    return summary
  }
}
