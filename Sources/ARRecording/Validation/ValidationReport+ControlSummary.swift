extension ValidationReport {
  /// What control points told of the session: how many sightings there were of each kind, how
  /// many the fit kept, and the alignment all of them give together (the truth at each
  /// evaluation is fitted to the sightings around it, ``ControlTruth/window``).
  public struct ControlSummary: Codable, Sendable {
    /// Sightings by source: clicks, taps naming a control point, marker corners found in frames.
    public var clicks: Int, taps: Int, markerCorners: Int
    /// Observations that found no frame (clicks) or no camera pose; each is also a warning.
    public var unmatched: Int
    /// Sightings within 4σ of the fit of the window around them, and the others (wrong clicks,
    /// or sightings too far from the rest in time to be fitted).
    public var used: Int, rejected: Int
    /// Distinct control points (and marker corners) among those used.
    public var points: Int
    /// The fit of every sighting at once: the session's yaw (degrees, in (−180°, 180°]) and
    /// origin (ENU metres) with their 1σ (over a long walk the odometry's drift makes this a
    /// compromise); and the RMS reprojection error of the sightings used against the fits
    /// around them (pixels).
    public var yawDeg: Double, yawSigmaDeg: Double
    /// The session origin in the site's ENU frame, `[east, north, up]` metres, and its 1σ per axis.
    public var originENU: [Double], originSigmaM: [Double]
    /// The RMS reprojection error of the sightings used, pixels.
    public var rmsPx: Double
    /// The span of sightings each evaluation's truth is fitted to, seconds.
    public var windowS: Double
    /// Evaluations (fixes) that had control truth.
    public var evaluations: Int

    enum CodingKeys: String, CodingKey {
      case clicks, taps, unmatched, used, rejected, points, evaluations
      case markerCorners = "marker_corners", yawDeg = "yaw_deg", yawSigmaDeg = "yaw_sigma_deg"
      case originENU = "origin_enu", originSigmaM = "origin_sigma_m", rmsPx = "rms_px", windowS = "window_s"
    }
  }
}
