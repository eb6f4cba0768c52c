import ARMath
import RealModule

/// One compass reading with the device's forward direction at that moment.
public struct CompassSample: Hashable, Sendable {
  /// The compass heading as the device reported it (clockwise from north); magnetic or true,
  /// as ``CompassBiasEstimator/estimate(_:alignment:declination:yawSigma:)`` is told.
  public var heading: Angle<Double>
  /// The direction the compass heading refers to (the device's forward axis) in session world
  /// coordinates; need not be unit length, must not be vertical.
  public var sessionDirection: SIMD3<Double>

  /// A sample.
  public init(heading: Angle<Double>, sessionDirection: SIMD3<Double>) {
    self.heading = heading
    self.sessionDirection = sessionDirection
  }
}

/// The bias of a compass against the visually aligned session: bias = compass heading (made
/// true with the declination) − true heading of the same direction. Corrected heading =
/// reading − bias.
public struct CompassBias: Hashable, Sendable {
  /// The estimated bias (positive: the compass reads clockwise of the truth).
  public var bias: Angle<Double>
  /// 1-σ uncertainty of the bias, including the session yaw's uncertainty.
  public var sigma: Angle<Double>
  /// Samples used (after rejecting those more than 5 robust σ from the median).
  public var sampleCount: Int
  /// Circular standard deviation of the per-sample biases: the compass's own noise.
  public var scatter: Angle<Double>
}

/// Estimates a compass's heading bias from samples and a session alignment.
public enum CompassBiasEstimator {
  /// The bias; `declination` (east positive) turns magnetic readings into true ones (pass zero
  /// for readings that are already true); `yawSigma` is the alignment's uncertainty.
  public static func estimate(
    _ samples: [CompassSample], alignment: SessionAlignment, declination: Angle<Double>,
    yawSigma: Angle<Double> = .zero
  ) throws(GeoError) -> CompassBias {
    var biases: [Double] = []
    for (i, sample) in samples.enumerated() {
      guard sample.heading.radians.isFinite,
        let truth = alignment.heading(ofSessionDirection: sample.sessionDirection), truth.radians.isFinite
      else { throw .degenerate("compass sample \(i): heading not finite or direction vertical") }
      biases.append((sample.heading + declination - truth).wrappedToPlusMinusPi.radians)
    }
    guard let median = SessionAligner.circularMedian(biases) else {
      throw .degenerate("compass bias needs at least one sample")
    }
    let deviations = biases.map { Angle<Double>(radians: $0 - median).wrappedToPlusMinusPi.radians }
    let mad = SessionAligner.median(deviations.map(abs)) * 1.4826
    let kept = deviations.filter { abs($0) <= max(5 * mad, 1e-12) }
    let mean = kept.reduce(0, +) / Double(kept.count)
    let variance =
      kept.count > 1 ? kept.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(kept.count - 1) : 0
    let sigma = (variance / Double(kept.count) + yawSigma.radians * yawSigma.radians).squareRoot()
    return CompassBias(
      bias: Angle(radians: median + mean).wrappedToPlusMinusPi, sigma: Angle(radians: sigma),
      sampleCount: kept.count, scatter: Angle(radians: variance.squareRoot()))
  }
}
