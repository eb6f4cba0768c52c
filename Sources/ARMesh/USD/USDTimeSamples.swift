import ARMath

/// An attribute's time samples evaluated at a time code, as USD does with its default linear
/// interpolation: held before the first sample and after the last; between two, numbers,
/// vectors and matrices (and arrays of them of one length) blended linearly and quaternions by
/// slerp; values of other types (and
/// two samples of different types) held at the earlier one.
enum USDTimeSamples {
  static func value(at time: Double, times: [Double], values: [USDValue]) -> USDValue? {
    guard let first = times.first, let last = times.last, !values.isEmpty else { return nil }
    if time <= first { return values[0] }
    if time >= last { return values[values.count - 1] }
    // The first sample after `time` (binary search); the one before it is held or blended.
    var (low, high) = (0, times.count - 1)
    while low < high {
      let mid = (low + high) / 2
      if times[mid] <= time { low = mid + 1 } else { high = mid }
    }
    let (a, b) = (values[low - 1], values[low])
    let s = (time - times[low - 1]) / (times[low] - times[low - 1])
    switch (a, b) {
    case (.double(let x), .double(let y)): return .double(x + (y - x) * s)
    case (.vector(let x), .vector(let y)): return .vector(x + (y - x) * s)
    case (.matrix(let x), .matrix(let y)) where x.count == y.count:
      return .matrix(zip(x, y).map { $0 + ($1 - $0) * s })
    case (.vectors(let x), .vectors(let y)) where x.count == y.count:
      return .vectors(Vector3Array(zip(x, y).map { $0 + ($1 - $0) * s }))
    case (.doubles(let x), .doubles(let y)) where x.count == y.count:
      return .doubles(zip(x, y).map { $0 + ($1 - $0) * s })
    case (.quaternions(let x), .quaternions(let y)) where x.count == y.count:
      return .quaternions(zip(x, y).map { slerp($0, $1, s) })
    case (.quaternion(let x), .quaternion(let y)):
      return .quaternion(slerp(x, y, s))
    default: return a
    }
  }

  /// `x` to `y` by slerp at `s` (quaternions as [i, j, k, real]), as USD's `GfSlerp` blends
  /// them: along the shorter arc, the two weighted as on the unit sphere but not made unit
  /// first (an exporter's quaternion a little off unit blends as usd-core's does), linearly
  /// where they are within 10⁻⁵ of parallel (beside a zero one, the other scaled by
  /// sin(s·π/2)).
  static func slerp(_ x: SIMD4<Double>, _ y: SIMD4<Double>, _ s: Double) -> SIMD4<Double> {
    var cosine = (x * y).sum()
    let flip = cosine < 0
    if flip { cosine = -cosine }
    var (weightX, weightY) = (1 - s, s)
    if 1 - cosine > 1e-5 {
      let theta = Double.acos(cosine), sine = Double.sin(theta)
      (weightX, weightY) = (Double.sin((1 - s) * theta) / sine, Double.sin(s * theta) / sine)
    }
    return weightX * x + (flip ? -weightY : weightY) * y
  }
}
