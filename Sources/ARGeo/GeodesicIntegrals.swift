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
  /// The secular rates (mean values of the integrands) of I₁, J = I₁ − I₂ and I₃, in lanes 0…2.
  let means: SIMD4<Double>
  /// For j = 1…7, the coefficients of sin(2jσ) (already divided by 2j) of I₁, J and I₃ in lanes
  /// 0…2: the three integrals at one σ are one Clenshaw recurrence on vectors.
  private let columns:
    (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)

  /// Mean value (the secular rate) of I₁'s integrand.
  var mean1: Double { means.x }

  /// sin²(iπ/16), i = 0…8: the distinct sample points of the integrands.
  private static let sineSquared: [Double] = (0...8).map { i in
    let s = Double.sin(Double(i) * .pi / 16)
    return s * s
  }
  /// sin²(iπ/16) for i = 0…7 as the lanes of one vector (sample 8's is 1).
  private static let sineSquaredLanes = SIMD8<Double>((0..<8).map { sineSquared[$0] })
  /// The DCT weights, 5 for each j = 1…7 (entry 5(j − 1) + i for the sample pair i): the
  /// trapezoid weight of cos(2j·iπ/16), including the 2/16 scale, the 1/(2j) of the integration
  /// and the doubling of the samples that stand for two points (i = 1…7). Samples i and 8 − i
  /// share a weight, up to the sign (−1)ʲ, so each j takes their sum or difference: half the
  /// products. (Sample 4 pairs with itself, and its weight for odd j is cos(jπ/2) = 0.)
  private static let weights: [Double] = (1...7).flatMap { j in
    (0...4).map { i in
      let multiplicity: Double = i == 0 ? 1 : 2
      return multiplicity * Double.cos(Double(2 * j * i) * .pi / 16) * (2.0 / 16) / Double(2 * j)
    }
  }

  init(kSquared k2: Double, flattening f: Double) {
    // The integrands at samples 0…7 in the lanes of vectors (their square roots and quotients
    // four instructions each, not eight), and at sample 8 alone.
    let w = (1 + k2 * Self.sineSquaredLanes).squareRoot()
    let (g1, g2, g3) = (w, 1 / w, (2 - f) / (1 + (1 - f) * w))
    let w8 = (1 + k2).squareRoot()
    @inline(__always) func sample(_ i: Int) -> SIMD4<Double> {
      i == 8 ? SIMD4(w8, w8 - 1 / w8, (2 - f) / (1 + (1 - f) * w8), 0) : SIMD4(g1[i], g1[i] - g2[i], g3[i], 0)
    }
    // Each sample's I₁, J and I₃ integrands are one vector; the pairs' sums and differences.
    let middle = sample(4)
    let (sum0, difference0) = (sample(0) + sample(8), sample(0) - sample(8))
    let (sum1, difference1) = (sample(1) + sample(7), sample(1) - sample(7))
    let (sum2, difference2) = (sample(2) + sample(6), sample(2) - sample(6))
    let (sum3, difference3) = (sample(3) + sample(5), sample(3) - sample(5))
    // Trapezoid sums, the end samples (0 and 8) standing for one point, the others for two; the
    // columns written out, so that nothing goes through memory.
    let total = sum0 + 2 * (sum1 + sum2 + sum3 + middle)
    var (c0, c1, c2, c3) = (SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero)
    var (c4, c5, c6) = (SIMD4<Double>.zero, SIMD4<Double>.zero, SIMD4<Double>.zero)
    Self.weights.withUnsafeBufferPointer { weights in
      let w = weights.baseAddress!
      @inline(__always) func odd(_ j: Int) -> SIMD4<Double> {
        let k = w + 5 * (j - 1)
        return difference0 * k[0] + difference1 * k[1] + difference2 * k[2] + difference3 * k[3]
      }
      @inline(__always) func even(_ j: Int) -> SIMD4<Double> {
        let k = w + 5 * (j - 1)
        return sum0 * k[0] + sum1 * k[1] + sum2 * k[2] + sum3 * k[3] + middle * k[4]
      }
      (c0, c1, c2, c3, c4, c5, c6) = (odd(1), even(2), odd(3), even(4), odd(5), even(6), odd(7))
    }
    means = total / 16
    columns = (c0, c1, c2, c3, c4, c5, c6)
  }

  /// I₁, J = I₁ − I₂ (the reduced length's) and I₃ at σ (lanes 0…2), from sin σ and cos σ: the
  /// secular terms and Σⱼ cⱼ sin(2jσ) by Clenshaw's recurrence, the three at once.
  @inline(__always)
  func values(sigma: Double, sin s: Double, cos c: Double) -> SIMD4<Double> {
    let cos2 = 2 * (c - s) * (c + s)  // 2 cos 2σ
    var (b1, b2) = (columns.6, SIMD4<Double>.zero)
    (b1, b2) = (cos2 * b1 - b2 + columns.5, b1)
    (b1, b2) = (cos2 * b1 - b2 + columns.4, b1)
    (b1, b2) = (cos2 * b1 - b2 + columns.3, b1)
    (b1, b2) = (cos2 * b1 - b2 + columns.2, b1)
    (b1, b2) = (cos2 * b1 - b2 + columns.1, b1)
    (b1, b2) = (cos2 * b1 - b2 + columns.0, b1)
    return means * sigma + b1 * (2 * s * c)
  }

  /// The change of I₁, J and I₃ (lanes 0…2) from σ₁ to σ₁ + σ₁₂, given the sines and cosines at
  /// both ends: the secular terms from σ₁₂ itself, so σ₁ is never needed (an arc tangent less
  /// for each trial of the inverse problem, and no rounding of σ₁ + σ₁₂).
  @inline(__always)
  func change(sigma12: Double, from start: (sin: Double, cos: Double), to end: (sin: Double, cos: Double))
    -> SIMD4<Double>
  {
    means * sigma12 + (periodic(sin: end.sin, cos: end.cos) - periodic(sin: start.sin, cos: start.cos))
  }

  /// The periodic parts Σⱼ cⱼ sin(2jσ) of I₁, J and I₃ at σ, from sin σ and cos σ.
  @inline(__always)
  private func periodic(sin s: Double, cos c: Double) -> SIMD4<Double> {
    values(sigma: 0, sin: s, cos: c)
  }

  /// I₁(σ).
  func distance(sigma: Double, sin s: Double, cos c: Double) -> Double {
    values(sigma: sigma, sin: s, cos: c).x
  }
}
