import ARMath
import RealModule

/// Weighted sums from which the least-squares session alignment follows in closed form (a
/// yaw-only weighted Procrustes problem). Adding a fix is O(1), so the batch estimator and the
/// online one share this type and agree to round-off.
///
/// Coordinates are taken relative to the first fix added, so that sums of squares stay small
/// and the centred sums do not cancel catastrophically far from the origin. The batch
/// estimator's reweighting iterations give each fix an extra weight (Tukey's biweight).
struct AlignmentStatistics: Sendable {
  private var reference: (session: SIMD2<Double>, enu: SIMD2<Double>)?
  private(set) var count = 0
  private var weight = 0.0
  private var sumSession = SIMD2<Double>.zero, sumENU = SIMD2<Double>.zero
  private var sumSessionSquared = 0.0, sumENUSquared = 0.0
  private var sumDot = 0.0, sumCross = 0.0  // Σw a·b and Σw (a_n b_e − a_e b_n)
  private var verticalWeight = 0.0, sumVertical = 0.0, sumVerticalSquared = 0.0
  private var referenceVertical = 0.0
  /// The session positions' bounding box (east, north) and Σ (68% radius)² of the fixes.
  private var lowest = SIMD2<Double>(repeating: .infinity), highest = SIMD2<Double>(repeating: -.infinity)
  private var sumRadius68Squared = 0.0

  /// Adds `fix` with weights `extraWeight`/σ² (horizontal and vertical); a fix of no extra
  /// weight is left out.
  mutating func add(_ fix: PositionFix, extraWeight: Double = 1) {
    guard extraWeight > 0 else { return }
    let u = fix.sessionEastNorth, q = fix.enuEastNorth
    if reference == nil {
      reference = (u, q)
      referenceVertical = fix.enu.z - fix.sessionPosition.y
    }
    let a = u - reference!.session, b = q - reference!.enu
    let w = extraWeight / (fix.horizontalAccuracy * fix.horizontalAccuracy)
    count += 1
    weight += w
    lowest = pointwiseMin(lowest, u)
    highest = pointwiseMax(highest, u)
    sumRadius68Squared +=
      (Self.radius68PerSigma * fix.horizontalAccuracy) * (Self.radius68PerSigma * fix.horizontalAccuracy)
    sumSession += w * a
    sumENU += w * b
    sumSessionSquared += w * (a * a).sum()
    sumENUSquared += w * (b * b).sum()
    sumDot += w * (a * b).sum()
    sumCross += w * (a.y * b.x - a.x * b.y)
    let vertical = fix.enu.z - fix.sessionPosition.y - referenceVertical
    let wv = extraWeight / (fix.effectiveVerticalAccuracy * fix.effectiveVerticalAccuracy)
    verticalWeight += wv
    sumVertical += wv * vertical
    sumVerticalSquared += wv * vertical * vertical
  }

  /// The least-squares alignment and its uncertainty; nil with fewer than 2 fixes or when the
  /// session positions do not spread (no lever arm, so no yaw).
  func solve() -> SessionAlignmentEstimate? {
    guard count >= 2, let reference else { return nil }
    let meanA = sumSession / weight, meanB = sumENU / weight
    // Centred sums.
    let saa = sumSessionSquared - weight * (meanA * meanA).sum()
    let sbb = sumENUSquared - weight * (meanB * meanB).sum()
    let dot = sumDot - weight * (meanA * meanB).sum()
    let cross = sumCross - weight * (meanA.y * meanB.x - meanA.x * meanB.y)
    guard saa > 0, dot != 0 || cross != 0 else { return nil }
    let yaw = Double.atan2(y: cross, x: dot)
    let s = Double.sin(yaw), c = Double.cos(yaw)
    // Translation: ENU of the session origin. q = R u + t with u, q relative to the references.
    let t = (meanB + reference.enu) - rotateClockwise(meanA + reference.session, sin: s, cos: c)
    let meanVertical = sumVertical / verticalWeight + referenceVertical
    // Weighted residual sum of squares: Σw|b − R a|² around the centroids.
    let chiSquared = max(0, saa + sbb - 2 * (dot * c + cross * s))
    let dof = 2 * count - 3
    // Standard errors from the known accuracies, inflated when the residuals say the reported
    // accuracies were optimistic (never deflated: a lucky run must not look better than it is).
    let inflation = dof > 0 ? max(1, chiSquared / Double(dof)) : 1
    let yawSigma = (inflation / saa).squareRoot()
    // Translation uncertainty at the session origin: centroid error plus the yaw's lever arm.
    let lever = (meanA + reference.session).length
    let translationSigma = (inflation / weight + yawSigma * yawSigma * lever * lever).squareRoot()
    return SessionAlignmentEstimate(
      alignment: SessionAlignment(
        yaw: Angle(radians: yaw).wrappedToZeroTwoPi, originENU: SIMD3(t.x, t.y, meanVertical)),
      yawSigma: Angle(radians: yawSigma), horizontalSigma: translationSigma,
      verticalSigma: (1 / verticalWeight).squareRoot(), fixCount: count, chiSquared: chiSquared,
      sessionCentroid: meanA + reference.session, centroidSigma: (inflation / weight).squareRoot(),
      trackExtent: (highest - lowest).length, fixRadius68: (sumRadius68Squared / Double(count)).squareRoot())
  }

  /// The 68% radius of a circular normal error over its σ per axis: `√(−2 ln 0.32)`.
  static let radius68PerSigma = 1.5096
}
