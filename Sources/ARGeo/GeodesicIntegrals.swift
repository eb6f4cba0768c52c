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
/// geodesic instead, by the trapezoid rule (a discrete cosine transform), which is exact for
/// periodic functions up to aliasing of the 16th harmonic: far below round-off for any
/// terrestrial ellipsoid. Each integral is then `c₀ σ + Σ cⱼ sin(2jσ) / (2j)`.
struct GeodesicIntegrals {
  static let harmonics = 7
  static let samples = 16

  /// Mean values (the secular rates) of the three integrands.
  private(set) var mean1 = 0.0, mean2 = 0.0, mean3 = 0.0
  // Coefficients of sin(2jσ), j = 1…harmonics, already divided by 2j.
  private var sine1 = [Double](repeating: 0, count: harmonics)
  private var sine2 = [Double](repeating: 0, count: harmonics)
  private var sine3 = [Double](repeating: 0, count: harmonics)

  init(kSquared k2: Double, flattening f: Double) {
    let n = Self.samples
    var g1 = [Double](repeating: 0, count: n), g2 = g1, g3 = g1
    for i in 0..<n {
      let s = Double.sin(Double(i) * .pi / Double(n))
      let w = (1 + k2 * s * s).squareRoot()
      g1[i] = w
      g2[i] = 1 / w
      g3[i] = (2 - f) / (1 + (1 - f) * w)
    }
    mean1 = g1.reduce(0, +) / Double(n)
    mean2 = g2.reduce(0, +) / Double(n)
    mean3 = g3.reduce(0, +) / Double(n)
    for j in 1...Self.harmonics {
      var a1 = 0.0, a2 = 0.0, a3 = 0.0
      for i in 0..<n {
        let c = Double.cos(Double(2 * j * i) * .pi / Double(n))
        a1 += g1[i] * c
        a2 += g2[i] * c
        a3 += g3[i] * c
      }
      let scale = 2 / Double(n) / Double(2 * j)
      sine1[j - 1] = a1 * scale
      sine2[j - 1] = a2 * scale
      sine3[j - 1] = a3 * scale
    }
  }

  /// The periodic parts of I₁, I₂ and I₃ at σ, given sin σ and cos σ (Clenshaw summation of
  /// Σ cⱼ sin(2jσ)).
  private func periodic(_ c: [Double], sin s: Double, cos co: Double) -> Double {
    // sin(2jσ) by the recurrence y_j = 2 cos 2σ y_{j−1} − y_{j−2}.
    let cos2 = 2 * (co - s) * (co + s)
    var b1 = 0.0, b2 = 0.0
    for j in stride(from: c.count - 1, through: 0, by: -1) {
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
    (mean1 - mean2) * sigma + periodic(sine1, sin: s, cos: c) - periodic(sine2, sin: s, cos: c)
  }
  /// I₃(σ).
  func longitude(sigma: Double, sin s: Double, cos c: Double) -> Double {
    mean3 * sigma + periodic(sine3, sin: s, cos: c)
  }
}
