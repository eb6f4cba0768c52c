import RealModule

/// Geodesics on an ellipsoid: the inverse problem (distance and bearings between two points) and
/// the direct problem (the point at a distance and bearing), accurate to round-off (nanometres on
/// the Earth) everywhere, including nearly antipodal points, the poles and the equator.
///
/// The formulation is Karney's (2013, "Algorithms for geodesics", J. Geodesy 87): the auxiliary
/// sphere, with the inverse solved by Newton's method on the start azimuth. The series are
/// replaced by per-geodesic numerical cosine expansions (`GeodesicIntegrals`), and Newton is
/// safeguarded by bisection: λ₁₂ grows monotonically with α₁ in the canonical configuration,
/// so the iteration cannot lose the root. Heights are ignored: this is the distance on the
/// ellipsoid.
public struct Geodesic: Sendable {
  /// The ellipsoid the geodesics run on.
  public let ellipsoid: Ellipsoid
  private let f: Double, oneMinusF: Double, b: Double, ep2: Double
  private static let tiny = Double.leastNormalMagnitude.squareRoot()

  /// Geodesics on `ellipsoid`.
  public init(_ ellipsoid: Ellipsoid = .wgs84) {
    self.ellipsoid = ellipsoid
    f = ellipsoid.flattening
    oneMinusF = 1 - f
    b = ellipsoid.polarRadius
    ep2 = ellipsoid.secondEccentricitySquared
  }

  /// Reduced latitude β of a geodetic latitude (degrees), as a unit (sin β, cos β), with cos β
  /// kept off zero so that the poles behave as limits.
  private func reducedLatitude(_ latitudeDegrees: Double) -> (sin: Double, cos: Double) {
    let (s, c) = sinCos(degrees: latitudeDegrees)
    let sb = oneMinusF * s
    let r = (sb * sb + c * c).squareRoot()
    return (sb / r, max(Self.tiny, c / r))
  }

  /// Distance and bearings from `a` to `b` (the inverse problem). Heights are ignored.
  public func inverse(from a: GeodeticCoordinate, to b: GeodeticCoordinate) throws(GeoError) -> GeodesicLine {
    let a = try a.validated(), b = try b.validated()
    var lon12 = wrappedDegrees(wrappedDegrees(b.longitudeDegrees) - wrappedDegrees(a.longitudeDegrees))
    var lonSign: Double = lon12.sign == .minus ? -1 : 1
    lon12 = abs(lon12)
    var lat1 = a.latitudeDegrees, lat2 = b.latitudeDegrees
    // Canonical configuration: |lat1| ≥ |lat2|, lat1 ≤ 0, 0 ≤ lon12 ≤ 180.
    let swapSign: Double = abs(lat1) < abs(lat2) ? -1 : 1
    if swapSign < 0 {
      swap(&lat1, &lat2)
      lonSign = -lonSign  // seen from the other end, the longitude difference changes sign
    }
    let latSign: Double = lat1 < 0 ? 1 : -1
    lat1 *= latSign
    lat2 *= latSign
    if lat1 == 0 { lat1 = -0.0 }

    let beta1 = reducedLatitude(lat1), beta2 = reducedLatitude(lat2)
    let lambda12 = lon12 * (.pi / 180)
    var solution: (s12: Double, sinA1: Double, cosA1: Double, sinA2: Double, cosA2: Double)

    if let meridian = meridional(beta1, beta2, lon12: lon12) {
      solution = meridian
    } else if beta1.sin == 0 && beta2.sin == 0 && lon12 <= oneMinusF * 180 {
      // Both on the equator and not so far apart that a path over the poles is shorter.
      solution = (ellipsoid.equatorialRadius * lambda12, 1, 0, 1, 0)
    } else {
      solution = general(beta1, beta2, lambda12: lambda12)
    }
    var (s12, sinA1, cosA1, sinA2, cosA2) = solution
    if swapSign < 0 {
      swap(&sinA1, &sinA2)
      swap(&cosA1, &cosA2)
    }
    sinA1 *= swapSign * lonSign
    cosA1 *= swapSign * latSign
    sinA2 *= swapSign * lonSign
    cosA2 *= swapSign * latSign
    s12 = max(0, s12)
    return GeodesicLine(
      distance: s12, initialBearingDegrees: atan2Degrees(sinA1, cosA1),
      finalBearingDegrees: atan2Degrees(sinA2, cosA2))
  }

  /// The solution along a meridian (lon12 = 0 or 180, or a pole), when it is the shortest.
  private func meridional(
    _ beta1: (sin: Double, cos: Double), _ beta2: (sin: Double, cos: Double), lon12: Double
  ) -> (Double, Double, Double, Double, Double)? {
    guard lon12 == 0 || lon12 == 180 || beta1.cos <= Self.tiny else { return nil }
    let (sinL, cosL) = sinCos(degrees: lon12)
    let (sinA1, cosA1) = (sinL, cosL)  // head north (lon12 = 0) or south over the pole
    let (sinA2, cosA2) = (0.0, 1.0)
    let (s1, c1) = unit(beta1.sin, cosA1 * beta1.cos), (s2, c2) = unit(beta2.sin, cosA2 * beta2.cos)
    let sigma12 = Double.atan2(y: max(0, c1 * s2 - s1 * c2), x: c1 * c2 + s1 * s2)
    let integrals = GeodesicIntegrals(kSquared: ep2, flattening: f)
    let difference = integrals.change(sigma12: sigma12, from: (s1, c1), to: (s2, c2))
    let s12 = b * difference.x
    // Past a conjugate point (m12 < 0) the meridian is a geodesic but not the shortest one.
    let m12 = reducedLength(j12: difference.y, s1: s1, c1: c1, s2: s2, c2: c2, k2: ep2)
    if sigma12 >= 1 && m12 < 0 { return nil }
    return (s12, sinA1 == 0 ? 0 : sinA1, cosA1, sinA2, cosA2)
  }

  /// The sine and cosine of the direction of the vector (x, y): (y, x) / |(x, y)|.
  private func unit(_ y: Double, _ x: Double) -> (Double, Double) {
    let r = (x * x + y * y).squareRoot()
    return (y / r, x / r)
  }

  /// The reduced length m₁₂ / b between the ends (Karney eq. 38), from J's change `j12` and the
  /// exact sines and cosines of σ at both ends.
  private func reducedLength(j12: Double, s1: Double, c1: Double, s2: Double, c2: Double, k2: Double)
    -> Double
  {
    let w1 = (1 + k2 * s1 * s1).squareRoot(), w2 = (1 + k2 * s2 * s2).squareRoot()
    return w2 * c1 * s2 - w1 * s1 * c2 - c1 * c2 * j12
  }

  /// Everything that follows from a start azimuth α₁ in the canonical configuration.
  private struct Trial {
    var lambda12 = 0.0, derivative = 0.0, s12 = 0.0
    var sinA2 = 0.0, cosA2 = 0.0
  }

  private func trial(
    _ alpha1: Double, _ beta1: (sin: Double, cos: Double), _ beta2: (sin: Double, cos: Double)
  ) -> Trial {
    let (sinA1, cosA1) = sinCos(radians: alpha1)
    let sinA0 = sinA1 * beta1.cos
    let cosA0 = (cosA1 * cosA1 + (sinA1 * beta1.sin) * (sinA1 * beta1.sin)).squareRoot()
    // Point 2's azimuth from Clairaut's relation; the positive cosine (arriving northwards).
    let sinA2 = beta2.cos != beta1.cos ? sinA0 / beta2.cos : sinA1
    let cosA2: Double
    if beta2.cos != beta1.cos || abs(beta2.sin) != -beta1.sin {
      let diff =
        beta1.cos < -beta1.sin
        ? (beta2.cos - beta1.cos) * (beta1.cos + beta2.cos)
        : (beta1.sin - beta2.sin) * (beta1.sin + beta2.sin)
      cosA2 = ((cosA1 * beta1.cos) * (cosA1 * beta1.cos) + diff).squareRoot() / beta2.cos
    } else {
      cosA2 = abs(cosA1)
    }
    // Unit vectors of σ and ω at both ends, straight from the latitudes and azimuths: going
    // through the angles would lose the tiny cos β of a pole.
    let (s1, c1) = unit(beta1.sin, cosA1 * beta1.cos), (s2, c2) = unit(beta2.sin, cosA2 * beta2.cos)
    let (so1, co1) = unit(sinA0 * beta1.sin, cosA1 * beta1.cos),
      (so2, co2) = unit(sinA0 * beta2.sin, cosA2 * beta2.cos)
    // σ₁₂ and ω₁₂ in [0, π], from the differences of the unit vectors (no wrap-around).
    let sigma12 = Double.atan2(y: max(0, c1 * s2 - s1 * c2), x: c1 * c2 + s1 * s2)
    let omega12 = Double.atan2(y: max(0, co1 * so2 - so1 * co2), x: co1 * co2 + so1 * so2)
    let k2 = ep2 * cosA0 * cosA0
    let integrals = GeodesicIntegrals(kSquared: k2, flattening: f)
    // I₁, J and I₃ from one end to the other, the three together.
    let difference = integrals.change(sigma12: sigma12, from: (s1, c1), to: (s2, c2))
    var t = Trial()
    t.lambda12 = omega12 - f * sinA0 * difference.z
    t.s12 = b * difference.x
    let m12 = reducedLength(j12: difference.y, s1: s1, c1: c1, s2: s2, c2: c2, k2: k2)
    t.derivative = cosA2 * beta2.cos != 0 ? oneMinusF * m12 / (cosA2 * beta2.cos) : .nan
    t.sinA2 = sinA2
    t.cosA2 = cosA2
    return t
  }

  /// The general case: find α₁ with λ₁₂(α₁) = lambda12.
  private func general(
    _ beta1: (sin: Double, cos: Double), _ beta2: (sin: Double, cos: Double), lambda12: Double
  ) -> (Double, Double, Double, Double, Double) {
    // Start from the great circle on the auxiliary sphere, with ω₁₂ = λ₁₂ scaled by the
    // ellipsoid's stretch at the mean reduced latitude (Karney's start for short lines; for
    // long lines Newton fixes it in a few steps): 3.4 trials a solve on average, not 3.5.
    let sumSin = beta1.sin + beta2.sin, sumCos = beta1.cos + beta2.cos
    let meanSinSquared = sumSin * sumSin / (sumSin * sumSin + sumCos * sumCos)
    let omega12 = lambda12 / (oneMinusF * (1 + ep2 * meanSinSquared).squareRoot())
    let sinW = Double.sin(omega12), cosW = Double.cos(omega12)
    var alpha = Double.atan2(y: beta2.cos * sinW, x: beta1.cos * beta2.sin - beta1.sin * beta2.cos * cosW)
    var low = 0.0, high = Double.pi
    if !(alpha > low && alpha < high) { alpha = .pi / 2 }
    var best = trial(alpha, beta1, beta2)
    for _ in 0..<100 {
      let residual = best.lambda12 - lambda12
      if abs(residual) <= 4 * Double.ulpOfOne * lambda12 { break }  // relative: short lines need it
      if residual > 0 { high = min(high, alpha) } else { low = max(low, alpha) }
      var next = alpha - residual / best.derivative
      if !(next > low && next < high) || !best.derivative.isFinite || best.derivative <= 0 {
        next = (low + high) / 2  // Newton left the bracket: bisect
      }
      if next == alpha || high - low <= Double.ulpOfOne * alpha { break }
      alpha = next
      best = trial(alpha, beta1, beta2)
    }
    let (sinA1, cosA1) = sinCos(radians: alpha)
    return (best.s12, sinA1, cosA1, best.sinA2, best.cosA2)
  }

  /// The point at `distance` metres from `start` along the geodesic that leaves it at
  /// `initialBearingDegrees` (the direct problem). Negative distances go backwards.
  public func direct(
    from start: GeodeticCoordinate, initialBearingDegrees: Double, distance: Double
  ) throws(GeoError) -> GeodesicDestination {
    let start = try start.validated()
    guard initialBearingDegrees.isFinite else {
      throw .invalidCoordinate(field: "bearing", value: initialBearingDegrees, reason: "must be finite")
    }
    guard distance.isFinite else {
      throw .invalidCoordinate(field: "distance", value: distance, reason: "must be finite")
    }
    let beta1 = reducedLatitude(start.latitudeDegrees)
    let (sinA1, cosA1) = sinCos(degrees: initialBearingDegrees)
    let sinA0 = sinA1 * beta1.cos
    let cosA0 = (cosA1 * cosA1 + (sinA1 * beta1.sin) * (sinA1 * beta1.sin)).squareRoot()
    let (s1, c1) = unit(beta1.sin, cosA1 * beta1.cos)
    let sigma1 = Double.atan2(y: s1, x: c1)
    let integrals = GeodesicIntegrals(kSquared: ep2 * cosA0 * cosA0, flattening: f)
    let target = integrals.distance(sigma: sigma1, sin: s1, cos: c1) + distance / b
    // Invert I₁ by Newton's method: its derivative √(1 + k² sin² σ) is within [1, 1.004].
    var sigma2 = sigma1 + distance / (b * integrals.mean1)
    for _ in 0..<20 {
      let s = Double.sin(sigma2), c = Double.cos(sigma2)
      let step =
        (integrals.distance(sigma: sigma2, sin: s, cos: c) - target)
        / (1 + ep2 * cosA0 * cosA0 * s * s).squareRoot()
      sigma2 -= step
      if abs(step) <= Double.ulpOfOne * max(1, abs(sigma2)) { break }
    }
    let s2 = Double.sin(sigma2), c2 = Double.cos(sigma2)
    let sinBeta2 = cosA0 * s2
    let cosBeta2 = (sinA0 * sinA0 + (cosA0 * c2) * (cosA0 * c2)).squareRoot()
    // ω as a continuous function of σ (tan ω = sin α₀ tan σ, same branch as σ).
    func omega(_ sigma: Double, _ s: Double, _ c: Double) -> Double {
      let turns = sigma - Double.atan2(y: s, x: c)
      let magnitude = Double.atan2(y: abs(sinA0) * s, x: c) + turns
      return sinA0.sign == .minus ? -magnitude : magnitude
    }
    let lambda12 =
      omega(sigma2, s2, c2) - omega(sigma1, s1, c1)
      - f * sinA0
      * (integrals.values(sigma: sigma2, sin: s2, cos: c2) - integrals.values(sigma: sigma1, sin: s1, cos: c1))
      .z
    let latitude = atan2Degrees(sinBeta2, oneMinusF * cosBeta2)
    let longitude = wrappedDegrees(start.longitudeDegrees + lambda12 * (180 / .pi))
    return GeodesicDestination(
      coordinate: GeodeticCoordinate(
        latitudeDegrees: latitude, longitudeDegrees: longitude, height: start.height),
      finalBearingDegrees: atan2Degrees(sinA0, cosA0 * c2))
  }
}
