import ARGeo
import ARMath
import RealModule

/// The app's side of a recorded session: the records an app would have had, consumed as it
/// would (each GPS fix and compass reading paired with the camera's session pose at its time),
/// fused into the session alignment it would place geo-anchored content with.
///
/// `arscene render --recording` places content with this; ``AnchorValidator`` composes one
/// and measures what it places, so the two agree by construction.
public struct AppSessionAlignment: Sendable {
  /// The site's local ENU frame (fixes without a height take its origin's).
  public let frame: LocalTangentFrame
  /// The fusion of fixes and compass readings.
  public private(set) var fusion: FusedSessionAligner
  /// How far apart in time a pose and a fix or reading may be to be paired, seconds.
  public var pairingTolerance = 0.1
  /// The latest camera pose.
  public private(set) var lastPose: CameraPoseSample?
  /// The latest compass reading's time (seconds) and true heading (degrees).
  public private(set) var lastCompass: (time: Double, trueHeading: Double)?
  /// The magnetic declination at the first paired fix: what turns a magnetic heading true.
  private var declination: Angle<Double>?
  /// Records of the current instant, taken together once time moves on (``consume(_:)``).
  private var group: [RecordingRecord] = []

  /// The app of a phone whose errors are like `assumptions`, at the site whose ENU frame is
  /// `frame`.
  public init(frame: LocalTangentFrame, assumptions: PhoneErrorModel = PhoneErrorModel()) {
    self.frame = frame
    fusion = FusedSessionAligner(assumptions: assumptions.alignmentAssumptions)
  }

  /// The session alignment by the records taken so far (nil until the fixes give one).
  public var alignment: SessionAlignment? { fusion.estimate?.alignment }

  /// Changes what the phone's errors are taken to be.
  public mutating func assume(_ assumptions: PhoneErrorModel) {
    fusion.assumptions = assumptions.alignmentAssumptions
  }

  /// Changes how the fusion runs (`FusedSessionAligner.compassMemory`, `detectsJumps`).
  public mutating func configure(_ change: (inout FusedSessionAligner) -> Void) { change(&fusion) }

  // MARK: Records one at a time

  /// Feeds one record (in time order). Records of one instant are taken together, in the order
  /// ``RecordingStream/sameInstantRank`` gives, whatever the file's.
  public mutating func consume(_ record: RecordingRecord) {
    if let current = group.first?.time, record.time != current {
      RecordingStream.inSameInstantOrder(group) { take($0) }
      group.removeAll(keepingCapacity: true)
    }
    group.append(record)
  }

  private mutating func take(_ record: RecordingRecord) {
    switch record {
    case .pose(let pose): take(pose)
    case .heading(let heading): _ = take(heading)
    case .gps(let fix): _ = take(fix)
    case .frame, .truth, .magnetometer, .accelerometer, .gyroscope, .tap, .geoPose: break
    }
  }

  /// Takes a camera pose.
  public mutating func take(_ pose: CameraPoseSample) { lastPose = pose }

  /// What a paired compass reading said: the session yaw it implies (radians), and the GPS
  /// track's own estimate when it came (which owes nothing to the compass).
  public struct CompassObservation: Sendable {
    /// The session yaw the compass implies, radians.
    public var yaw: Double
    /// The GPS track's own estimate when the reading came; nil before it has one.
    public var gpsEstimate: SessionAlignmentEstimate?
  }

  /// Takes a compass reading: its true heading (or its magnetic one turned by the declination,
  /// once a fix has given one) and, paired with a pose, the session yaw it implies.
  ///
  /// - Returns: The observation, or nil when the reading gives no yaw (no true heading yet, or
  ///   no pose within ``pairingTolerance``).
  public mutating func take(_ heading: HeadingSample) -> CompassObservation? {
    if let trueHeading = heading.trueHeadingDegrees {
      lastCompass = (heading.time, trueHeading)
    } else if let declination {
      lastCompass = (heading.time, heading.magneticHeadingDegrees + declination.degrees)
    } else {
      return nil
    }
    guard let compass = lastCompass, let pose = lastPose, abs(pose.time - heading.time) <= pairingTolerance,
      let sessionHeading = WorldFrame.heading(
        ofWorldDirection: pose.worldFromCamera.rotation.act([0, 0, -1]))
    else { return nil }
    let yaw = (Angle<Double>.degrees(compass.trueHeading) - sessionHeading).radians
    let observation = CompassObservation(yaw: yaw, gpsEstimate: fusion.gpsEstimate)
    fusion.addCompassYaw(yaw, at: heading.time, claimedAccuracy: heading.accuracyDegrees)
    return observation
  }

  /// What a paired fix was: its ENU position, its per-axis σ (metres), the camera's session
  /// position then, whether it joined the fusion (not a jump), the fused estimate before it
  /// did, and the pose it was paired with.
  public struct FixObservation: Sendable {
    /// The fix's position in the site's ENU frame, metres.
    public var enu: SIMD3<Double>
    /// Its 1σ per horizontal axis, metres.
    public var sigma: Double
    /// The camera's position in the session frame then, metres.
    public var sessionPosition: SIMD3<Double>
    /// Whether it joined the fusion (false: taken for a multipath jump).
    public var accepted: Bool
    /// The fused estimate before it; nil before the first.
    public var prediction: SessionAlignmentEstimate?
    /// The pose it was paired with.
    public var pose: CameraPoseSample
  }

  /// Takes a GPS fix: paired with a pose within ``pairingTolerance`` (and with a positive
  /// accuracy), it joins the fusion unless it is a multipath jump.
  ///
  /// - Returns: The observation, or nil for a fix that could not be paired.
  public mutating func take(_ fix: GPSFix) -> FixObservation? {
    guard let pose = lastPose, abs(pose.time - fix.time) <= pairingTolerance, fix.horizontalAccuracy > 0
    else { return nil }
    let coordinate = GeodeticCoordinate(
      latitudeDegrees: fix.latitude, longitudeDegrees: fix.longitude,
      height: fix.ellipsoidalHeight ?? frame.origin.height)
    if declination == nil {
      declination = try? MagneticModel.wmm2025.declination(
        at: coordinate, decimalYear: (try? MagneticModel.decimalYear(secondsSince1970: fix.time)) ?? 2026)
    }
    let enu = frame.enu(coordinate)
    let sigma = fix.horizontalAccuracy / PhoneErrorModel.radius68PerSigma
    let position = pose.worldFromCamera.translation
    let (accepted, prediction) = fusion.add(
      PositionFix(
        sessionPosition: position, enu: enu, horizontalAccuracy: sigma,
        verticalAccuracy: fix.verticalAccuracy.map { Swift.max($0, 0.1) }),
      at: fix.time)
    return FixObservation(
      enu: enu, sigma: sigma, sessionPosition: position, accepted: accepted, prediction: prediction,
      pose: pose)
  }
}

extension PhoneErrorModel {
  /// The part of these assumptions the app's fusion uses.
  public var alignmentAssumptions: FusedSessionAligner.Assumptions {
    FusedSessionAligner.Assumptions(
      gpsWhiteSigma: gpsWhiteSigma, gpsMarkovSigma: gpsMarkovSigma, gpsMarkovTau: gpsMarkovTau,
      headingBiasSigma: headingBiasSigma)
  }
}

extension RecordingStream {
  /// Calls `body` with the records of one instant, `group`, in ``sameInstantRank`` order (stable
  /// within a rank), without moving them: a group holds a handful.
  static func inSameInstantOrder(_ group: [RecordingRecord], _ body: (RecordingRecord) -> Void) {
    guard group.count > 1 else {
      if let only = group.first { body(only) }
      return
    }
    for rank in sameInstantRanks {
      for record in group where record.stream.sameInstantRank == rank { body(record) }
    }
  }

  /// Every stream's rank, in order: told from the streams, so that a new one is never skipped.
  private static let sameInstantRanks = Set(allCases.map(\.sameInstantRank)).sorted()

  /// Where a stream's records of one instant are taken among the others: poses and truth
  /// first, then compass, the motion sensors, taps, fixes, frames and the platform's geo poses.
  public var sameInstantRank: Int {
    switch self {
    case .pose: 0
    case .truth: 1
    case .heading: 2
    case .magnetometer, .accelerometer, .gyroscope: 3
    case .tap: 4
    case .gps: 5
    case .frame: 6
    case .geoPose: 7
    }
  }
}
