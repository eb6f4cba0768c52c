import ARGeo

/// What `arscene validate` reports: for each geo-anchor, how far from its true place the app's
/// fused alignment put it over the recording (and where a single fix and the compass would have
/// put it), whether the uncertainty it claimed was honest, how honest the phone's GPS accuracy
/// was, and the fused trajectory's errors. Distances are metres, angles degrees, image errors
/// pixels; errors need the recording's truth and are absent without it. What needs no truth is
/// always there: each anchor's placement, claimed σ and stability, and the sensors'
/// ``Consistency`` with the odometry.
public struct ValidationReport: Codable, Sendable {
  /// The recording's source and time base, records read and skipped.
  public var source: String
  /// Records read.
  public var records: Int
  /// Records skipped (invalid in their layout, or bad with `--lenient`).
  public var skipped: Int
  /// Whether there was truth to measure errors against: the recording's own, or control points
  /// seen in it (without it, errors are not reported).
  public var hasTruth: Bool
  /// Where the truth came from.
  public var truthSource: TruthSource
  /// The fused session alignment at the end.
  public var alignment: Alignment?
  /// The control points' observations and the alignment they give (when the scene has control
  /// points and the recording sightings of them).
  public var control: ControlSummary? = nil
  /// One entry an anchor.
  public var anchors: [AnchorSummary]
  /// How honest the phone's horizontal accuracy was.
  public var gps: GPSSummary
  /// The fixes' and the compass's agreement with the odometry (no truth needed).
  public var consistency: Consistency
  /// APE and RPE (10 m) of the fused camera trajectory against the truth (translation, metres),
  /// on the truth one record a second.
  public var trajectory: TrajectorySummary?
  /// The errors over time (every evaluation), and tracks for a map; left out of the summary
  /// `arscene validate` prints, kept in `--json` and the HTML report.
  public var timeline: [TimelinePoint]
  /// East and north tracks for a map, and the sensors' innovations.
  public var tracks: Tracks
  /// How long the session was, how far the camera went and over what extent; nil without poses.
  public var session: SessionSummary? = nil
  /// How the platform's own geo poses kept their claimed accuracies against the truth; nil
  /// when the recording has none.
  public var geoPoseClaims: GeoPoseClaims? = nil
  /// How far anchors placed in front of the camera drifted against a truth track
  /// (`validate --truth-track`); nil without one.
  public var anchorDrift: TrackDrift? = nil

  /// Where a report's truth came from (`truth_source` in JSON).
  public enum TruthSource: String, Codable, Sendable {
    /// The recording's own truth records (a simulation's).
    case simulation
    /// Control points seen in its frames (``ValidationReport/control``).
    case control
    /// None: errors are not reported.
    case none
  }

  /// Where the final alignment's yaw came from (`alignment.source` in JSON).
  public enum AlignmentSource: String, Codable, Sendable {
    /// The compass alone: the fixes' track was shorter than their accuracy, so it saw no yaw.
    case compass
    /// The fixes' track alone: no compass readings.
    case gpsTrack = "gps_track"
    /// The fixes' track and the compass, weighted by their uncertainties.
    case fused
    /// The scene's `session_alignment`, for a recording without fixes.
    case scene

    /// The report's name for where a fused alignment's yaw came from.
    public init(_ source: SessionYawSource) {
      switch source {
      case .compass: self = .compass
      case .gpsTrack: self = .gpsTrack
      case .fused: self = .fused
      }
    }
  }

  /// The fused alignment: where the session frame sits in the site's ENU frame (its yaw in
  /// (−180°, 180°]). Without fixes, the scene's own alignment with no σ (`source` `scene`).
  public struct Alignment: Codable, Sendable {
    /// Where it came from.
    public var source: AlignmentSource
    /// The session's yaw, degrees in (−180°, 180°], and its claimed 1σ (nil from the scene).
    public var yawDeg: Double, yawSigmaDeg: Double?
    /// The session origin in the site's ENU frame, `[east, north, up]` metres.
    public var originENU: [Double]
    /// The claimed 1σ of the fixes' centroid, per horizontal axis, metres.
    public var centroidSigma: Double?
    /// Fixes the alignment used, and rejected as outliers or multipath jumps.
    public var fixesUsed: Int, fixesRejected: Int
  }

  /// One anchor over the recording: where it was placed and how steadily (always), and its
  /// errors against the truth (when the recording has truth).
  public struct AnchorSummary: Codable, Sendable {
    /// The anchor's name in the scene.
    public var name: String
    /// Where the fused alignment put it at the end; nil when nothing placed it.
    public var placement: Placement?
    /// Where the app drew it in the recording's session frame at the end, metres.
    public var sessionPosition: [Double]?
    /// How far it moved in the image and in the session as the alignment changed.
    public var stability: Stability
    /// Horizontal position error of the fused placement: at the end, median, RMS, largest.
    public var positionError: Statistics?
    /// The fused placement's claimed 1σ radius (horizontal RMS, metres) at the end; nil
    /// without fixes.
    public var finalSigma: Double?
    /// RMS error / RMS claimed σ over the recording: 1 when the claimed uncertainty is honest.
    public var normalizedRMS: Double?
    /// Fractions of evaluations with the truth within 1σ and 3σ of the fused placement.
    public var within1Sigma: Double?, within3Sigma: Double?
    /// Vertical error of the fused placement, metres.
    public var verticalError: Statistics?
    /// Heading error of the fused placement, degrees; nil when no heading could be taken (the
    /// anchor's forward axis seen straight up or down).
    public var headingError: Statistics?
    /// Distance in the camera image between where the app drew the anchor and where it truly
    /// was, at frames that saw it, pixels.
    public var reprojectionError: Statistics?
    /// The same, for the anchor placed from the latest fix and compass heading alone (what the
    /// site guide did): horizontal metres; nil without compass headings.
    public var rawPositionError: Statistics?
    /// With control truth: the 1σ horizontal radius (metres) of where the truth puts the anchor
    /// as drawn, over the evaluations: the errors above are uncertain by this much.
    public var truthSigma: Statistics? = nil
  }

  /// A set of errors summarised.
  public struct Statistics: Codable, Sendable {
    /// The last value, the median, the root mean square, the largest, and how many.
    public var final: Double, median: Double, rms: Double, max: Double, count: Int

    init?(_ values: [Double]) {
      guard let last = values.last else { return nil }
      let sorted = values.sorted()
      final = last
      median =
        sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
      rms = (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
      max = sorted.last!
      count = values.count
    }
  }

  /// The GPS fixes against the truth.
  public struct GPSSummary: Codable, Sendable {
    /// Fixes in the recording.
    public var fixes: Int
    /// Fixes used by the alignment and rejected as outliers.
    public var used: Int, rejected: Int
    /// Fixes with truth, and the fraction whose horizontal error was within their reported
    /// accuracy (a 68% radius: 0.68 when the phone is honest).
    public var withTruth: Int
    /// The fraction of them within their reported accuracy.
    public var withinAccuracy: Double?
    /// Horizontal error of the fixes, metres.
    public var error: Statistics?
  }

  /// The fused camera trajectory against the truth, as `arscene traj` measures it.
  public struct TrajectorySummary: Codable, Sendable {
    /// Absolute position error, metres.
    public var ape: ErrorStatistics
    /// Relative position error over 10 m, metres; nil on a shorter walk.
    public var rpe: ErrorStatistics?
  }

  /// One evaluation (at each GPS fix once the alignment has started), per anchor.
  public struct TimelinePoint: Codable, Sendable {
    /// Seconds since the first record.
    public var t: Double
    /// The anchor's index in ``ValidationReport/anchors``.
    public var anchor: Int
    /// The fused placement's error (with truth) and its claimed σ, metres.
    public var error: Double?, sigma: Double
    /// The latest-fix-and-compass placement's error; nil without a compass heading.
    public var rawError: Double?
    /// With control truth: the truth's own 1σ horizontal radius at the anchor, metres.
    public var truthSigma: Double? = nil
  }

  /// East/north metres in the site's ENU frame, for the map: the tracks one point a second.
  public struct Tracks: Codable, Sendable {
    /// The truth's camera, one point a second.
    public var truth: [GroundPoint]
    /// The fused camera, and the alignment's claimed horizontal σ there (per axis) as the radius.
    public var fused: [GroundCircle]
    /// The fixes, and their reported accuracies (68% radius) as the radius.
    public var fixes: [GroundCircle]
    /// Each anchor's true position.
    public var anchors: [GroundPoint]
    /// Each anchor's largest frame-to-frame jitter in each second.
    public var jitter: [JitterPoint]
    /// Each fix's normalised innovation squared (χ², 2 degrees of freedom when honest) and the
    /// compass readings' (χ², 1 degree of freedom; a seeded uniform sample of at most 10,000).
    public var gpsNIS: [Double], headingNIS: [Double]

    enum CodingKeys: String, CodingKey {
      case truth, fused, fixes, anchors, jitter, gpsNIS = "gps_nis", headingNIS = "heading_nis"
    }
  }

  /// The report without the timeline and tracks: what `arscene validate` prints.
  public var summary: ValidationReport {
    var s = self
    s.timeline = []
    s.tracks = Tracks(truth: [], fused: [], fixes: [], anchors: [], jitter: [], gpsNIS: [], headingNIS: [])
    if let drift = s.anchorDrift {
      for i in drift.drift.anchors.indices { s.anchorDrift!.drift.anchors[i].series = [] }
    }
    return s
  }

  enum CodingKeys: String, CodingKey {
    case source, records, skipped, hasTruth = "has_truth", truthSource = "truth_source", alignment, control,
      anchors, gps
    case consistency, trajectory, timeline, tracks, session
    case geoPoseClaims = "geo_pose_claims", anchorDrift = "anchor_drift"
  }
}

extension ValidationReport.Alignment {
  enum CodingKeys: String, CodingKey {
    case source, yawDeg = "yaw_deg", yawSigmaDeg = "yaw_sigma_deg", originENU = "origin_enu"
    case centroidSigma = "centroid_sigma_m", fixesUsed = "fixes_used", fixesRejected = "fixes_rejected"
  }
}

extension ValidationReport.AnchorSummary {
  enum CodingKeys: String, CodingKey {
    case name, placement, sessionPosition = "session_position", stability
    case positionError = "position_error_m", finalSigma = "final_sigma_m", normalizedRMS = "normalized_rms"
    case within1Sigma = "within_1_sigma", within3Sigma = "within_3_sigma", verticalError = "vertical_error_m"
    case headingError = "heading_error_deg", reprojectionError = "reprojection_error_px"
    case rawPositionError = "raw_position_error_m", truthSigma = "truth_sigma_m"
  }
}

extension ValidationReport.GPSSummary {
  enum CodingKeys: String, CodingKey {
    case fixes, used, rejected, withTruth = "with_truth", withinAccuracy = "within_accuracy", error =
      "error_m"
  }
}

extension ValidationReport.TimelinePoint {
  enum CodingKeys: String, CodingKey {
    case t, anchor, error = "error_m", sigma = "sigma_m", rawError = "raw_error_m", truthSigma =
      "truth_sigma_m"
  }
}
