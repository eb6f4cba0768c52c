/// A curve through control points that never turns back: piecewise cubic Hermite with
/// Fritsch–Carlson slopes ("Monotone piecewise cubic interpolation", SIAM J. Numer. Anal.,
/// 1980), so it passes through every point and is monotone wherever the points are.
public struct MonotoneCurve: Sendable, Equatable {
  /// The control points, x strictly increasing.
  public let points: [SIMD2<Double>]
  let slopes: [Double]

  /// A curve through `points` (x strictly increasing, at least two).
  public init?(points: [SIMD2<Double>]) {
    guard points.count >= 2, zip(points, points.dropFirst()).allSatisfy({ $0.x < $1.x }) else { return nil }
    self.points = points
    let n = points.count
    let secants = (0..<(n - 1)).map { (points[$0 + 1].y - points[$0].y) / (points[$0 + 1].x - points[$0].x) }
    var m = [Double](repeating: 0, count: n)
    m[0] = secants[0]
    m[n - 1] = secants[n - 2]
    for k in 1..<(n - 1) {
      // Where the secants change sign (or one is flat) the curve has an extremum: slope zero.
      m[k] = secants[k - 1] * secants[k] <= 0 ? 0 : (secants[k - 1] + secants[k]) / 2
    }
    // Limit the slopes so that each cubic stays monotone (α² + β² ≤ 9).
    for k in 0..<(n - 1) {
      guard secants[k] != 0 else {
        (m[k], m[k + 1]) = (0, 0)
        continue
      }
      let (a, b) = (m[k] / secants[k], m[k + 1] / secants[k])
      let r = a * a + b * b
      if r > 9 {
        let t = 3 / r.squareRoot()
        (m[k], m[k + 1]) = (t * a * secants[k], t * b * secants[k])
      }
    }
    slopes = m
  }

  /// The curve at `x`; beyond the ends, the end points' values.
  public func value(at x: Double) -> Double {
    guard x > points[0].x else { return points[0].y }
    guard x < points[points.count - 1].x else { return points[points.count - 1].y }
    var (lo, hi) = (0, points.count - 1)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if points[mid].x <= x { lo = mid } else { hi = mid }
    }
    let (p0, p1) = (points[lo], points[hi])
    let h = p1.x - p0.x, t = (x - p0.x) / h
    let t2 = t * t, t3 = t2 * t
    return (2 * t3 - 3 * t2 + 1) * p0.y + (t3 - 2 * t2 + t) * h * slopes[lo] + (-2 * t3 + 3 * t2) * p1.y
      + (t3 - t2) * h * slopes[hi]
  }
}
