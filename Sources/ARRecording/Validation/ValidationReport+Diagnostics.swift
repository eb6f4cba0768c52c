import ARGeo

extension ValidationReport {
  /// Where the app drew an anchor at the end of the recording, as the fused alignment then puts
  /// it on the Earth: geodetic degrees and metres above the WGS 84 ellipsoid.
  public struct Placement: Codable, Sendable {
    /// Degrees north and east, and metres above the ellipsoid.
    public var latitude: Double, longitude: Double, height: Double
  }

  /// How steady an anchor was, measurable without truth: how far it moved in the image between
  /// consecutive frames because the alignment changed (the camera's own motion taken out:
  /// both places are seen from the later frame's camera), and how far its place in the
  /// session frame moved from the first placement to the last.
  public struct Stability: Codable, Sendable {
    /// Percentiles and the largest of the frame-to-frame jitter, pixels; nil without frames
    /// that have intrinsics.
    public var jitterP50: Double?, jitterP95: Double?, jitterMax: Double?
    /// Frames the jitter was measured at (the anchor in the image).
    public var frames: Int
    /// Metres between the first and the last place the app gave the anchor in the session frame.
    public var drift: Double?
  }

  /// Whether the phone's sensors agree with its odometry as well as they claim, measurable
  /// without truth.
  public struct Consistency: Codable, Sendable {
    /// Mean normalised innovation squared of each fix against the fused track predicted from
    /// the odometry (the fix's reported σ and the prediction's together): 2 when the reported
    /// accuracies are honest (χ², 2 degrees of freedom), larger when they are optimistic.
    public var gpsNISMean: Double?
    /// Fraction of those innovations within their 68% region: 0.68 when honest.
    public var gpsWithin68: Double?
    /// Fixes the innovations were measured at.
    public var gpsInnovations: Int
    /// RMS of the compass's session yaw against the fused yaw, degrees, and their circular mean
    /// (the compass's bias against the odometry's yaw), in (−180, 180].
    public var headingInnovationRMSDeg: Double?, headingBiasDeg: Double?
    /// Compass readings the innovations were measured at.
    public var headingInnovations: Int
    /// The scale that maps the odometry's horizontal track onto the fixes' (1 for a true metric
    /// odometry; the fixes' noise makes it uncertain on short walks), and the walk's spread:
    /// the RMS distance of its fixes from their centroid, metres.
    public var odometryScale: Double?, walkExtent: Double?
  }
}

extension ValidationReport.Placement {
  init(_ coordinate: GeodeticCoordinate) {
    (latitude, longitude, height) = (
      coordinate.latitudeDegrees, coordinate.longitudeDegrees, coordinate.height
    )
  }
}

extension ValidationReport.Stability {
  enum CodingKeys: String, CodingKey {
    case jitterP50 = "jitter_px_p50", jitterP95 = "jitter_px_p95", jitterMax = "jitter_px_max", frames
    case drift = "drift_m"
  }
}

extension ValidationReport.Consistency {
  enum CodingKeys: String, CodingKey {
    case gpsNISMean = "gps_nis_mean", gpsWithin68 = "gps_within_68", gpsInnovations = "gps_innovations"
    case headingInnovationRMSDeg = "heading_innovation_rms_deg", headingBiasDeg = "heading_bias_deg"
    case headingInnovations = "heading_innovations", odometryScale = "odometry_scale", walkExtent =
      "walk_extent_m"
  }
}
