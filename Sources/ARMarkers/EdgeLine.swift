import ARMath
import Foundation

/// A straight image edge fitted through points found on it (total least squares), with how
/// well the points pin it down: where two sides of a marker meet, the corner and its
/// uncertainty.
struct EdgeLine: Sendable {
  /// The points' centroid, pixels.
  let point: SIMD2<Double>
  /// Unit direction.
  let direction: SIMD2<Double>
  /// The points' scatter across the line: residual variance with two degrees of freedom
  /// spent on the fit, pixels².
  let residualVariance: Double
  /// How many points it was fitted through.
  let count: Int
  /// Σ t² of the points' positions `t` along the line about the centroid, pixels².
  let spread: Double

  /// The line through `points`; nil for fewer than four.
  init?(fitting points: [SIMD2<Double>]) {
    guard points.count >= 4 else { return nil }
    let mean = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
    var (sxx, sxy, syy) = (0.0, 0.0, 0.0)
    for p in points {
      let d = p - mean
      (sxx, sxy, syy) = (sxx + d.x * d.x, sxy + d.x * d.y, syy + d.y * d.y)
    }
    let angle = 0.5 * atan2(2 * sxy, sxx - syy)
    let direction = SIMD2(cos(angle), sin(angle)), normal = SIMD2(-direction.y, direction.x)
    var (across, along) = (0.0, 0.0)
    for p in points {
      let d = p - mean
      across += (d * normal).sum() * (d * normal).sum()
      along += (d * direction).sum() * (d * direction).sum()
    }
    self.point = mean
    self.direction = direction
    self.residualVariance = across / Double(points.count - 2)
    self.count = points.count
    self.spread = along
  }

  /// The variance of the line's position across itself at `p` (pixels²): its offset's and its
  /// angle's uncertainty, the latter growing with the distance from the centroid.
  ///
  /// Neighbouring points' errors are not independent: JPEG codes the image in 8-pixel blocks
  /// and blur spreads noise, so the line counts one independent point per 8 pixels of its
  /// length (at least two), not every point.
  func offsetVariance(at p: SIMD2<Double>) -> Double {
    let t = ((p - point) * direction).sum()
    let length = (12 * spread / Double(count)).squareRoot()
    let independent = min(Double(count), max(2, length / 8))
    let scale = Double(count) / independent
    return residualVariance * scale * (1 / Double(count) + (spread > 0 ? t * t / spread : 0))
  }

  /// Where this line meets `other`, and the variance of each of that point's coordinates
  /// (pixels², half the trace of its covariance); nil for nearly parallel lines.
  func intersection(_ other: EdgeLine) -> (point: SIMD2<Double>, variance: Double)? {
    let cross = direction.x * other.direction.y - direction.y * other.direction.x
    guard abs(cross) > 1e-6 else { return nil }
    let d = other.point - point
    let s = (d.x * other.direction.y - d.y * other.direction.x) / cross
    let p = point + direction * s
    // Shifting each line across itself by e moves the meeting point by e / sin θ.
    return (p, (offsetVariance(at: p) + other.offsetVariance(at: p)) / (2 * cross * cross))
  }
}
