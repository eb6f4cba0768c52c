import ARMath

/// The errors `arscene simulate` gives a phone's sensors, with defaults typical of a current
/// phone walking in the open. Each default says where it comes from.
public struct PhoneErrorModel: Sendable, Equatable {
  // MARK: GNSS

  /// Fixes per second. iOS delivers about one fix a second with `kCLLocationAccuracyBest`.
  public var gpsRate = 1.0
  /// White noise of each horizontal axis, metres (1σ). Together with the correlated part, the
  /// total is ≈ 2.7 m a horizontal axis, a 68% radius of ≈ 4.1 m: the 3–5 m open-sky accuracy
  /// smartphones reach (van Diggelen & Enge, "The World's First GPS MOOC and Worldwide
  /// Laboratory Using Smartphones", ION GNSS+ 2015; Zandbergen & Barbeau, "Positional Accuracy
  /// of Assisted GPS Data from High-Sensitivity GPS-enabled Mobile Phones", J. Navigation 2011).
  public var gpsWhiteSigma = 1.0
  /// The slowly wandering part of each horizontal axis, metres (1σ, stationary), a first-order
  /// Gauss–Markov process: atmospheric and orbit errors change over minutes, which is why a
  /// phone's fixes drift together rather than scatter.
  public var gpsMarkovSigma = 2.5
  /// The Gauss–Markov correlation time, seconds. Single-frequency GNSS position errors stay
  /// correlated for tens to hundreds of seconds; a walking phone's (multipath that changes as
  /// the walker moves, the phone's own filtering) sit at the short end, and 30 s is taken. The
  /// longer it is, the less averaging fixes gains: over a five-minute walk the fused position is
  /// about `σ √(2τ / T)` off, so at τ = 60 s fusion roughly halves a single fix's error rather
  /// than doing better than half.
  public var gpsMarkovTau = 30.0
  /// Vertical errors are this many times the horizontal ones (consumer GNSS: 1.5–2).
  public var gpsVerticalFactor = 1.5
  /// Multipath jumps a second (on average one every ten minutes): a reflected signal pulls the
  /// fix away by ``multipathOffset`` metres for ``multipathDuration`` seconds, and the phone's
  /// reported accuracy does not know it.
  public var multipathRate = 1.0 / 600
  /// How far a multipath jump pulls the fix, metres (uniform in the range).
  public var multipathOffset: ClosedRange<Double> = 8...25
  /// How long a multipath jump lasts, seconds (uniform in the range).
  public var multipathDuration: ClosedRange<Double> = 5...20
  /// Outages a second (on average one every ten minutes) and their length, seconds: no fixes.
  public var gpsDropoutRate = 1.0 / 600
  /// How long an outage lasts, seconds (uniform in the range).
  public var gpsDropoutDuration: ClosedRange<Double> = 10...30
  /// The reported accuracy's scatter about the true 68% radius (a fraction, 1σ): phones estimate
  /// their accuracy, they do not know it.
  public var accuracyScatter = 0.1

  // MARK: Compass

  /// Headings per second (`CLLocationManager` with no heading filter).
  public var headingRate = 10.0
  /// A constant bias for the whole walk, degrees (1σ across walks): what is left after the
  /// figure-eight calibration.
  public var headingBiasSigma = 2.0
  /// Noise of each reading, degrees (1σ): 1–3° after calibration.
  public var headingNoiseSigma = 2.0
  /// Disturbances a second (on average one every two minutes: a car, a railing, a phone case
  /// magnet), their size in degrees (either sign) and length in seconds.
  public var headingDisturbanceRate = 1.0 / 120
  /// A disturbance's size, degrees (uniform in the range, either sign).
  public var headingDisturbance: ClosedRange<Double> = 15...25
  /// A disturbance's length, seconds (uniform in the range).
  public var headingDisturbanceDuration: ClosedRange<Double> = 3...10
  /// What the phone reports as `headingAccuracy`, degrees (iOS reports 10–20° in use).
  public var headingReportedAccuracy = 10.0

  // MARK: Visual-inertial odometry

  /// Camera poses and frames a second (ARKit runs at 60 Hz; 30 keeps files small).
  public var poseRate = 30.0
  /// Camera frames a second (a frame is written with the pose nearest its time).
  public var frameRate = 10.0
  /// Scale error of the odometry, a fraction (1σ across walks).
  public var odometryScaleSigma = 0.01
  /// Yaw drift, degrees a √metre walked (a random walk): ≈ 2° after 400 m, which with the scale
  /// error makes the 1–2% of the distance walked that visual-inertial odometry drifts.
  public var odometryYawDrift = 0.1
  /// Walking speed, metres a second, and the phone's height above the ground, metres.
  public var walkingSpeed = 1.3
  /// The phone's height above the ground, metres.
  public var deviceHeight = 1.5
  /// The camera's intrinsics (an iPhone's 1920×1440 wide camera).
  public var intrinsics = Pinhole<Double>(fx: 1445, fy: 1445, cx: 960, cy: 720)
  /// The camera image's size, pixels (width, height).
  public var imageSize = SIMD2(1920, 1440)

  // MARK: The platform's geo poses (ARCore Geospatial, ARKit geo tracking)

  /// Whether the platform's geo poses are written, one a frame, and how optimistic their claims
  /// are: each claimed 68% accuracy is the errors' true one divided by this (1: honest, 3: a
  /// claim of 1.5 m while 4.5 m off); nil: none written.
  public var geoPoseOptimism: Double? = nil
  /// The geo poses' errors, white, 1σ: horizontal per axis and vertical in metres, yaw in degrees
  /// (what visual positioning gets in a city street).
  public var geoPoseHorizontalSigma = 2.0, geoPoseVerticalSigma = 1.5, geoPoseYawSigmaDegrees = 3.0

  /// The defaults above.
  public init() {}

  /// A phone with perfect sensors: no noise, no drift, no outages (what a test of the
  /// pipeline's exactness needs).
  public static var perfect: PhoneErrorModel {
    var m = PhoneErrorModel()
    (m.gpsWhiteSigma, m.gpsMarkovSigma, m.multipathRate, m.gpsDropoutRate, m.accuracyScatter) = (
      0, 0, 0, 0, 0
    )
    (m.headingBiasSigma, m.headingNoiseSigma, m.headingDisturbanceRate) = (0, 0, 0)
    (m.odometryScaleSigma, m.odometryYawDrift) = (0, 0)
    return m
  }

  /// The 68% radius of a circular 2-D Gaussian with `sigma` a horizontal axis: √(−2 ln 0.32) σ.
  public static let radius68PerSigma = 1.5096
  /// The 68% half-interval of a 1-D Gaussian with `sigma`: Φ⁻¹(0.84) σ.
  public static let halfInterval68PerSigma = 0.99446
}
