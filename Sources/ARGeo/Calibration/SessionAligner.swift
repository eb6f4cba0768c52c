import ARMath
import RealModule

/// Estimates how an AR session's world frame is rotated (yaw about gravity) and shifted relative
/// to ENU from a track of session positions and GPS fixes: the heading bias of a session started
/// with `.gravity` alignment, or the error of one started with a wrong compass heading.
///
/// The estimate is the weighted least-squares fit (weights 1/σ², closed form) on the fixes that
/// survive outlier rejection. Outliers (multipath jumps, a fix from before the GPS settled) are
/// found robustly: a median of pairwise yaws starts an iteratively reweighted fit with Tukey's
/// biweight, which gives gross errors zero weight. The yaw's σ comes from the Fisher information
/// (1/Σ w|a|²), inflated by the reduced χ² when the fixes scatter more than their stated accuracy.
public enum SessionAligner {
  /// Residuals beyond this many σ (2-D) are outliers: 0.003% of honest fixes exceed it.
  public static let outlierThreshold = 4.5

  /// The alignment from `fixes`.
  /// - Throws: ``GeoError/degenerate(_:)`` with fewer than 3 usable fixes or when the session
  ///   did not move horizontally (a yaw needs a lever arm); invalid fixes by index.
  public static func estimate(_ fixes: [PositionFix]) throws(GeoError) -> SessionAlignmentEstimate {
    for (i, fix) in fixes.enumerated() { _ = try fix.validated(index: i) }
    guard fixes.count >= 3 else {
      throw .degenerate("session alignment needs at least 3 fixes, got \(fixes.count)")
    }
    let spread = horizontalSpread(fixes)
    let meanAccuracy = fixes.map(\.horizontalAccuracy).reduce(0, +) / Double(fixes.count)
    guard spread > 0.5 * meanAccuracy else {
      throw .degenerate(
        "the session moved \(spread) m horizontally, too little against \(meanAccuracy) m GPS accuracy to tell a yaw"
      )
    }
    var (yaw, translation) = robustStart(fixes)
    var inliers = [Bool](repeating: true, count: fixes.count)
    for _ in 0..<20 {
      // Reweight: Tukey's biweight on the normalised residual.
      var statistics = AlignmentStatistics()
      for (i, fix) in fixes.enumerated() {
        let e = normalisedResidual(fix, yaw: yaw, translation: translation)
        inliers[i] = e < outlierThreshold
        let r = e / outlierThreshold
        let w = inliers[i] ? (1 - r * r) * (1 - r * r) : 0
        statistics.add(fix, extraWeight: w)
      }
      guard let next = statistics.solve()?.alignment else { break }
      let converged = abs((next.yaw - yaw).wrappedToPlusMinusPi.radians) < 1e-12
      (yaw, translation) = (next.yaw, SIMD2(next.originENU.x, next.originENU.y))
      if converged { break }
    }
    var final = AlignmentStatistics()
    var outliers: [Int] = []
    for (i, fix) in fixes.enumerated() {
      if normalisedResidual(fix, yaw: yaw, translation: translation) < outlierThreshold {
        final.add(fix)
      } else {
        outliers.append(i)
      }
    }
    guard final.count >= 3, var result = final.solve() else {
      throw .degenerate(
        "fewer than 3 fixes agree with each other (\(outliers.count) of \(fixes.count) rejected)")
    }
    result.outlierIndices = outliers
    return result
  }

  static func horizontalSpread(_ fixes: [PositionFix]) -> Double {
    let points = fixes.map(\.sessionEastNorth)
    let mean = points.reduce(.zero, +) / Double(points.count)
    return (points.map { ($0 - mean).lengthSquared }.reduce(0, +) / Double(points.count)).squareRoot()
  }

  static func normalisedResidual(_ fix: PositionFix, yaw: Angle<Double>, translation: SIMD2<Double>) -> Double
  {
    let predicted = rotateClockwise(fix.sessionEastNorth, sin: yaw.sin, cos: yaw.cos) + translation
    return (predicted - fix.enuEastNorth).length / fix.horizontalAccuracy
  }

  /// A start that outliers cannot drag: the circular median of the yaws of many fix pairs half
  /// a track apart, then the component-wise median translation.
  static func robustStart(_ fixes: [PositionFix]) -> (Angle<Double>, SIMD2<Double>) {
    let n = fixes.count, half = n / 2
    var yaws: [Double] = []
    let stride = max(1, half / 100)
    for i in Swift.stride(from: 0, to: n - half, by: stride) {
      let a = fixes[i + half].sessionEastNorth - fixes[i].sessionEastNorth
      let b = fixes[i + half].enuEastNorth - fixes[i].enuEastNorth
      guard a.lengthSquared > 0, b.lengthSquared > 0 else { continue }
      // Clockwise angle from a to b.
      yaws.append(Double.atan2(y: a.y * b.x - a.x * b.y, x: (a * b).sum()))
    }
    let yaw = Angle(radians: circularMedian(yaws) ?? 0)
    let offsets = fixes.map {
      $0.enuEastNorth - rotateClockwise($0.sessionEastNorth, sin: yaw.sin, cos: yaw.cos)
    }
    return (yaw, SIMD2(median(offsets.map(\.x)), median(offsets.map(\.y))))
  }

  /// The angle minimising the sum of absolute angular distances to `angles` (radians); nil if empty.
  static func circularMedian(_ angles: [Double]) -> Double? {
    angles.min { x, y in
      angles.reduce(0) { $0 + abs(Angle(radians: $1 - x).wrappedToPlusMinusPi.radians) }
        < angles.reduce(0) { $0 + abs(Angle(radians: $1 - y).wrappedToPlusMinusPi.radians) }
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }
}
