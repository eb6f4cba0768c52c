import RealModule

/// The three distance and longitude integrals of a geodesic on the auxiliary sphere (Karney 2013,
/// "Algorithms for geodesics", eqs. 7, 8 and 40), for one value of `k² = e′² cos² α₀`:
///
/// - I₁(σ) = ∫₀^σ √(1 + k² sin² σ′) dσ′ (distance: s = b I₁),
/// - I₂(σ) = ∫₀^σ 1/√(1 + k² sin² σ′) dσ′ (with I₁, the reduced length),
/// - I₃(σ) = ∫₀^σ (2 − f) / (1 + (1 − f) √(1 + k² sin² σ′)) dσ′ (longitude: λ = ω − f sin α₀ I₃).
///
/// Each integrand is even and π-periodic, so it is a cosine series in 2σ whose coefficients fall
/// like (k²/4)ʲ; Karney expands them as series in ε. Here they are computed numerically per
/// geodesic instead, by the trapezoid rule on 16 points over a period (a discrete cosine
/// transform), which is exact for periodic functions up to aliasing of the 16th harmonic: far
/// below round-off for any terrestrial ellipsoid (k² ≤ 0.0068 gives (k²/4)¹⁶ ≈ 10⁻⁴⁴). The
/// integrands are also symmetric about π/2, so 9 samples suffice. Each integral is then
/// `c₀ σ + Σⱼ cⱼ sin(2jσ) / (2j)`, j = 1…7.
struct GeodesicIntegrals {
  /// Mean value (the secular rate) of I₁'s integrand.
  let mean1: Double
  private let mean2: Double, mean3: Double
  // Coefficients of sin(2jσ), j = 1…7 in lanes 0…6 (lane 7 is zero), already divided by 2j.
  private let sine1: SIMD8<Double>, sine2: SIMD8<Double>, sine3: SIMD8<Double>

  /// sin²(iπ/16), i = 0…8: the distinct sample points of the integrands.
  private static let sineSquared: [Double] = (0...8).map { i in
    let s = Double.sin(Double(i) * .pi / 16)
    return s * s
  }
  /// The DCT weights: for sample i (0…8), lane j−1 holds the trapezoid weight of
  /// cos(2j·iπ/16) for j = 1…7, including the 2/16 scale, the 1/(2j) of the integration and the
  /// doubling of the samples that stand for two points (i = 1…7).
  private static let weights: [SIMD8<Double>] = (0...8).map { i in
    var w = SIMD8<Double>.zero
    let multiplicity: Double = (i == 0 || i == 8) ? 1 : 2
    for j in 1...7 {
      w[j - 1] = multiplicity * Double.cos(Double(2 * j * i) * .pi / 16) * (2.0 / 16) / Double(2 * j)
    }
    return w
  }

  init(kSquared k2: Double, flattening f: Double) {
    var m1 = 0.0, m2 = 0.0, m3 = 0.0
    var c1 = SIMD8<Double>.zero, c2 = SIMD8<Double>.zero, c3 = SIMD8<Double>.zero
    for i in 0...8 {
      let w = (1 + k2 * Self.sineSquared[i]).squareRoot()
      let g1 = w, g2 = 1 / w, g3 = (2 - f) / (1 + (1 - f) * w)
      let multiplicity: Double = (i == 0 || i == 8) ? 1 : 2
      m1 += multiplicity * g1
      m2 += multiplicity * g2
      m3 += multiplicity * g3
      let weight = Self.weights[i]
      c1 += g1 * weight
      c2 += g2 * weight
      c3 += g3 * weight
    }
    (mean1, mean2, mean3) = (m1 / 16, m2 / 16, m3 / 16)
    (sine1, sine2, sine3) = (c1, c2, c3)
  }

  /// Σⱼ cⱼ sin(2jσ) for the coefficients in `c`, by Clenshaw's recurrence, from sin σ and cos σ.
  @inline(__always)
  private func periodic(_ c: SIMD8<Double>, sin s: Double, cos co: Double) -> Double {
    let cos2 = 2 * (co - s) * (co + s)  // 2 cos 2σ
    var b1 = 0.0, b2 = 0.0
    for j in stride(from: 6, through: 0, by: -1) {
      (b1, b2) = (cos2 * b1 - b2 + c[j], b1)
    }
    return b1 * 2 * s * co
  }

  /// I₁(σ).
  func distance(sigma: Double, sin s: Double, cos c: Double) -> Double {
    mean1 * sigma + periodic(sine1, sin: s, cos: c)
  }
  /// I₁(σ) − I₂(σ), the J of the reduced length.
  func reducedLengthTerm(sigma: Double, sin s: Double, cos c: Double) -> Double {
    (mean1 - mean2) * sigma + periodic(sine1 - sine2, sin: s, cos: c)
  }
  /// I₃(σ).
  func longitude(sigma: Double, sin s: Double, cos c: Double) -> Double {
    mean3 * sigma + periodic(sine3, sin: s, cos: c)
  }
}
