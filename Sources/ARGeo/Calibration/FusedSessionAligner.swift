import ARMath
import RealModule

/// The session alignment an app fuses from GPS fixes and compass readings, fix by fix: what a
/// renderer places geo-anchored content with, and what a validator measures.
///
/// The fixes go to an ``OnlineSessionAligner``. Its claimed uncertainty is widened for the GNSS
/// errors' correlation in time: fixes a second apart are not independent, so the correlated
/// part of their error (a first-order Gauss–Markov process, `φ = exp(−Δt / τ)`) averages out
/// far more slowly than white noise. A fix whose residual jumps away from where the odometry
/// carried the fixes before it (multipath) is left out. The compass gives the session's yaw too,
/// as a running circular mean, and the two yaws are combined by their uncertainties.
public struct FusedSessionAligner: Sendable {
  /// What the phone's errors are taken to be.
  public struct Assumptions: Sendable, Equatable {
    /// σ of the GNSS error's white part, per horizontal axis, metres.
    public var gpsWhiteSigma: Double
    /// σ of the GNSS error's correlated (Gauss–Markov) part, per horizontal axis, metres.
    public var gpsMarkovSigma: Double
    /// The correlated part's time constant τ, seconds (0: no correlation).
    public var gpsMarkovTau: Double
    /// σ of the compass's bias, degrees: what its yaw is trusted to.
    public var headingBiasSigma: Double

    /// An aligner with these error assumptions (metres, seconds, radians as named).
    public init(gpsWhiteSigma: Double, gpsMarkovSigma: Double, gpsMarkovTau: Double, headingBiasSigma: Double)
    {
      (self.gpsWhiteSigma, self.gpsMarkovSigma) = (gpsWhiteSigma, gpsMarkovSigma)
      (self.gpsMarkovTau, self.headingBiasSigma) = (gpsMarkovTau, headingBiasSigma)
    }
  }

  /// What the phone's errors are taken to be.
  public var assumptions: Assumptions
  /// Seconds over which compass readings are averaged (the odometry's yaw drifts, so old
  /// readings describe an older session frame).
  public var compassMemory = 120.0
  /// Whether fixes that jump away from the odometry (multipath) are left out.
  public var detectsJumps = true
  /// Fixes left out as multipath jumps.
  public private(set) var jumpsSkipped = 0

  private var aligner = OnlineSessionAligner()
  private var fixSpacing: (last: Double?, sum: Double, count: Int) = (nil, 0, 0)
  /// The session yaw the compass says: a running circular mean of the readings' yaws that
  /// forgets over ``compassMemory`` seconds, each reading more than 12° from the mean of 20 or
  /// more (a disturbance) left out.
  private var compassYaw: (sum: SIMD2<Double>, count: Int, time: Double) = (.zero, 0, 0)
  /// The accuracies the phone claimed for the readings in that mean, degrees: Σ w·a² and Σ w,
  /// forgotten as the mean forgets.
  private var claimedAccuracy: (sumSquares: Double, weight: Double) = (0, 0)
  /// The fixes' residual against the alignment, smoothed over the accepted fixes, and the time
  /// a jump away from it began.
  private var residualLevel: SIMD2<Double>?
  private var jumpStart: Double?

  /// An aligner with no fixes yet.
  public init(assumptions: Assumptions) { self.assumptions = assumptions }

  /// The GPS track's own estimate (no compass, no widening); nil until it has one.
  public var gpsEstimate: SessionAlignmentEstimate? { aligner.current }
  /// Fixes the GPS aligner rejected as outliers (jumps not counted: ``jumpsSkipped``).
  public var rejectedCount: Int { aligner.rejectedCount }
  /// The compass's σ, radians (never below 0.01°): the accuracy the phone claimed for the
  /// readings averaged (their root mean square, as the mean weighs them) where it claimed one,
  /// else the assumed ``Assumptions/headingBiasSigma``. A claim is a bias bound the readings
  /// share, so averaging them does not shrink it.
  public var compassSigma: Double {
    let degrees =
      claimedAccuracy.weight > 0
      ? (claimedAccuracy.sumSquares / claimedAccuracy.weight).squareRoot() : assumptions.headingBiasSigma
    return Swift.max(degrees, 0.01) * .pi / 180
  }

  /// The fused alignment now: the GPS track's, its claimed uncertainty widened for correlated
  /// fixes, its yaw combined with the compass's (inverse-variance weights) and the translation
  /// moved to keep the fixes' centroid where it was; nil until the fixes give one.
  ///
  /// A track shorter than its fixes' accuracy (``SessionAlignmentEstimate/gpsSeesYaw``)
  /// contributes no yaw: with compass readings the yaw is the compass's alone, without them the
  /// track's is kept with no less than the σ of a yaw known not at all (180°/√3).
  /// ``SessionAlignmentEstimate/yawSource`` says which.
  public var estimate: SessionAlignmentEstimate? {
    guard var estimate = aligner.current else { return nil }
    let f = correlationInflation(fixes: estimate.fixCount).squareRoot()
    var yawSigma = estimate.yawSigma.radians * f
    estimate.centroidSigma *= f
    var yaw = estimate.alignment.yaw
    estimate.yawSource = .gpsTrack
    if !estimate.gpsSeesYaw { yawSigma = Swift.max(yawSigma, .pi / 3.0.squareRoot()) }
    if compassYaw.count > 0 {
      let compass = Angle<Double>(radians: Double.atan2(y: compassYaw.sum.y, x: compassYaw.sum.x))
      let compassSigma = self.compassSigma
      if estimate.gpsSeesYaw {
        let w = compassSigma * compassSigma / (compassSigma * compassSigma + yawSigma * yawSigma)
        yaw = yaw + (compass - yaw).wrappedToPlusMinusPi * (1 - w)
        yawSigma = 1 / (1 / (yawSigma * yawSigma) + 1 / (compassSigma * compassSigma)).squareRoot()
        estimate.yawSource = .fused
      } else {
        (yaw, yawSigma) = (compass, compassSigma)
        estimate.yawSource = .compass
      }
      // Keep the centroid's ENU position: t' = centroid_ENU − R(yaw') centroid_session.
      let c = estimate.sessionCentroid
      let session = SIMD3(c.x, 0, -c.y)
      let centroidENU = estimate.alignment.enu(sessionPoint: session)
      var moved = SessionAlignment(yaw: yaw, originENU: estimate.alignment.originENU)
      let shift = centroidENU - moved.enu(sessionPoint: session)
      moved.originENU += SIMD3(shift.x, shift.y, 0)
      estimate.alignment = moved
    }
    estimate.yawSigma = Angle(radians: yawSigma)
    estimate.horizontalSigma = estimate.horizontalSigma(atSessionPoint: .zero)
    return estimate
  }

  /// Adds a fix taken at `time` (seconds): left out when it jumps away from the fixes before it,
  /// else given to the GPS aligner (which may reject it as an outlier).
  ///
  /// - Returns: Whether it was not a jump, and the fused ``estimate`` just before the fix
  ///   joined it (what the fix is a test of).
  public mutating func add(_ fix: PositionFix, at time: Double) -> (
    accepted: Bool, prediction: SessionAlignmentEstimate?
  ) {
    if let last = fixSpacing.last, time > last {
      fixSpacing.sum += time - last
      fixSpacing.count += 1
    }
    fixSpacing.last = time
    let jump = isJump(fix.enu, at: fix.sessionPosition, time: time)
    let prediction = estimate
    if !jump { _ = try? aligner.add(fix) }
    return (!jump, prediction)
  }

  /// Adds the session yaw a compass reading implies (radians, the session's heading turned to
  /// true north) at `time` (seconds) into the running mean, with the accuracy the phone claimed
  /// for the reading (degrees, `CLHeading.headingAccuracy`; nil when it claimed none).
  public mutating func addCompassYaw(_ yaw: Double, at time: Double, claimedAccuracy accuracy: Double? = nil)
  {
    let unit = SIMD2(Double.cos(yaw), Double.sin(yaw))
    if compassYaw.count >= 20 {
      let mean = compassYaw.sum / compassYaw.sum.length
      guard (unit * mean).sum() > Double.cos(12 * .pi / 180) else { return }
    }
    let forget = Double.exp(-Swift.max(0, time - compassYaw.time) / compassMemory)
    if let accuracy, accuracy.isFinite, accuracy > 0 {
      claimedAccuracy = (
        claimedAccuracy.sumSquares * forget + accuracy * accuracy, claimedAccuracy.weight * forget + 1
      )
    }
    compassYaw.sum = compassYaw.sum * forget + unit
    compassYaw.count += 1
    compassYaw.time = time
  }

  /// How much the variance of a mean of `n` fixes exceeds that of `n` independent ones when a
  /// share of their error is first-order Gauss–Markov: `1 + 2 Σₖ (1 − k/n) φᵏ` for that share.
  private func correlationInflation(fixes n: Int) -> Double {
    let m = assumptions
    let correlatedVariance = m.gpsMarkovSigma * m.gpsMarkovSigma
    let total = correlatedVariance + m.gpsWhiteSigma * m.gpsWhiteSigma
    guard m.gpsMarkovTau > 0, total > 0, fixSpacing.count > 0, n > 1 else { return 1 }
    let spacing = fixSpacing.sum / Double(fixSpacing.count)
    let phi = Double.exp(-spacing / m.gpsMarkovTau)
    let count = Double(n)
    let markov =
      (1 + phi) / (1 - phi) - 2 * phi * (1 - Double.pow(phi, count)) / (count * (1 - phi) * (1 - phi))
    let share = correlatedVariance / total
    return share * markov + (1 - share)
  }

  /// Whether a fix jumped away from where the odometry carried the fixes before it: multipath.
  ///
  /// The GNSS error wanders slowly (Gauss–Markov) and the odometry is smooth over a second, so
  /// the fix's residual against the current alignment changes by little from fix to fix: its
  /// expected change per axis is `√(2(1 − φ) σ_GM² + 2 σ_white²)`. A residual more than four of
  /// those from the smoothed level is a jump, and the fixes are left out until they come back,
  /// or for at most a minute (after which the new level is taken as the truth's).
  private mutating func isJump(_ enu: SIMD3<Double>, at position: SIMD3<Double>, time: Double) -> Bool {
    guard detectsJumps, let estimate = aligner.current, estimate.fixCount >= aligner.warmUp else {
      return false
    }
    let predicted = estimate.alignment.enu(sessionPoint: position)
    let residual = SIMD2(enu.x - predicted.x, enu.y - predicted.y)
    let m = assumptions
    let spacing = fixSpacing.count > 0 ? fixSpacing.sum / Double(fixSpacing.count) : 1
    let phi = m.gpsMarkovTau > 0 ? Double.exp(-spacing / m.gpsMarkovTau) : 0
    let step = (2 * (1 - phi) * m.gpsMarkovSigma * m.gpsMarkovSigma + 2 * m.gpsWhiteSigma * m.gpsWhiteSigma)
      .squareRoot()
    guard let level = residualLevel else {
      residualLevel = residual
      return false
    }
    if (residual - level).length > Swift.max(4 * step, 1), jumpStart.map({ time - $0 < 60 }) ?? true {
      if jumpStart == nil { jumpStart = time }
      jumpsSkipped += 1
      return true
    }
    jumpStart = nil
    residualLevel = level + 0.2 * (residual - level)
    return false
  }
}
