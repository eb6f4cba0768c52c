import RealModule

/// Whether a candidate plane is a surface or a band through clutter.
///
/// RANSAC reports the band that holds the most points. In a scan where clutter (furniture,
/// people, noise) fills the room's volume, every band of thickness `2t` holds some by chance,
/// spread evenly through it: no surface. A candidate is a surface when both hold:
///
/// 1. **Support.** Its inliers outnumber what the clutter around it would put in its band by
///    chance, by ``significance`` standard deviations. The clutter's density is measured right
///    there: the points in the two slabs beside the band (distances `t…3t`, twice the band's
///    volume) over the candidate's own footprint, halved, estimate the clutter inside it (a
///    Poisson count, so its standard deviation is its square root).
/// 2. **Residuals.** Its inliers' mean squared distance lies below that of points spread
///    uniformly through the band (`t²/3`, so an rms of `t/√3`) by ``significance`` standard
///    errors: a surface's residuals are its sensor noise, well inside the band.
struct SurfaceEvidence {
  /// The inlier distance, metres.
  let threshold: Double
  /// How many standard deviations the evidence must clear.
  static let significance = 5.0

  /// Whether the plane `normal · p = offset` with `inliers` (a connected patch) is a surface;
  /// `candidates` are the points still unexplained, from which the clutter is measured.
  func isSurface(
    normal: SIMD3<Double>, offset: Double, inliers: [Int], candidates: [Int], points: [SIMD3<Double>]
  ) -> Bool {
    guard !inliers.isEmpty else { return false }
    let t = threshold, k = Self.significance
    let footprint = PlaneFootprint(inliers, normal: normal, points: points, threshold: t)
    let cells = Set(inliers.map { footprint.key(points[$0]) })
    var beside = 0
    for i in candidates {
      let distance = abs(normal.dot(points[i]) - offset)
      if distance > t, distance <= 3 * t, cells.contains(footprint.key(points[i])) { beside += 1 }
    }
    let chance = Double(beside) / 2
    let support = Double(inliers.count)
    guard support > chance + k * max(chance, 1).squareRoot() else { return false }
    // Uniform in [−t, t]: E[d²] = t²/3, Var[d²] = t⁴/5 − t⁴/9 = 4t⁴/45.
    var sum = 0.0
    for i in inliers { sum += Double.pow(normal.dot(points[i]) - offset, 2) }
    let meanSquare = sum / support
    let uniformSpread = (4.0 / 45).squareRoot() * t * t / support.squareRoot()
    return meanSquare < t * t / 3 - k * uniformSpread
  }
}
