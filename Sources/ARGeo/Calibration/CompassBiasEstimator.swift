import ARMath
import RealModule

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
