import ARFilm
import ARImage
import ARImageIO
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Each stage's defining property, on seeded images.
@Suite("Film stages")
struct FilmStageTests {
  /// A seeded linear image with colours over the whole range and an alpha ramp.
  static func randomImage(width: Int = 64, height: Int = 48, seed: UInt64 = 1) -> LinearImage {
    var random = SplitMix64(seed: seed)
    return LinearImage(
      width: width, height: height,
      pixels: (0..<(width * height)).map { i in
        SIMD4(
          Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random),
          Float.random(in: 0...1, using: &random), Float(i % 256) / 255)
      })
  }

  static func stage<S: FilmStage>(_ type: S.Type, _ values: [String: Any]) throws -> S {
    try S(FilmParameters(values, field: S.key))
  }

  @Test("identity and zero-strength stages leave the image unchanged bit for bit")
  func identities() throws {
    let image = Self.randomImage()
    let stages: [any FilmStage] = [
      try Self.stage(ToneCurve.self, [:]),
      try Self.stage(ToneCurve.self, ["points": [[0, 0], [0.3, 0.3], [1, 1]]]),
      try Self.stage(ColourMatrix.self, [:]),
      try Self.stage(WhiteBalance.self, [:]),
      try Self.stage(BlackAndWhite.self, ["strength": 0]),
      try Self.stage(SplitToning.self, [:]),
      try Self.stage(ShadowsHighlights.self, [:]),
      try Self.stage(BilateralBlur.self, ["sigma_px": 0]),
      try Self.stage(Soften.self, ["strength": 0]),
      try Self.stage(Halation.self, ["strength": 0]),
      try Self.stage(Vignette.self, ["amount": 0]),
      try Self.stage(LightLeak.self, ["intensity": 0]),
      try Self.stage(FilmGrain.self, ["strength": 0]),
      LUTStage(lut: try CubeLUT(text: Self.identityCube(size: 9), path: "identity.cube")),
    ]
    for stage in stages {
      var copy = image
      stage.apply(to: &copy, context: FilmContext(seed: 7))
      #expect(copy == image, "\(type(of: stage).key)")
    }
    // And through 8-bit files: every code decodes and encodes back to itself.
    let codes = RGBA8Image(
      width: 256, height: 1, pixels: (0..<256).map { SIMD4(UInt8($0), UInt8(255 - $0), UInt8($0 / 2), 255) })
    #expect(FilmLook(name: "none", stages: stages).apply(to: codes, context: FilmContext()) == codes)
  }

  static func identityCube(size: Int) -> String {
    var lines = ["LUT_3D_SIZE \(size)"]
    for b in 0..<size {
      for g in 0..<size {
        for r in 0..<size {
          let n = Float(size - 1)
          lines.append("\(Float(r) / n) \(Float(g) / n) \(Float(b) / n)")
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  @Test("a tone curve passes through its points and never turns back (seeded curves)")
  func curves() throws {
    var random = SplitMix64(seed: 35)
    for _ in 0..<200 {
      let count = Int.random(in: 2...7, using: &random)
      var xs = (0..<count).map { _ in Double.random(in: 0...1, using: &random) }.sorted()
      xs[0] = 0
      xs[count - 1] = 1
      guard zip(xs, xs.dropFirst()).allSatisfy({ $1 - $0 > 1e-3 }) else { continue }
      let ys = (0..<count).map { _ in Double.random(in: 0...1, using: &random) }.sorted()
      let curve = try #require(MonotoneCurve(points: zip(xs, ys).map { SIMD2($0, $1) }))
      for (x, y) in zip(xs, ys) { #expect(abs(curve.value(at: x) - y) < 1e-12) }
      var previous = -Double.infinity
      for k in 0...1000 {
        let v = curve.value(at: Double(k) / 1000)
        #expect(v >= previous - 1e-12)
        previous = v
      }
    }
    // In the stage, black lifted and white compressed, in display-encoded units.
    let faded = try Self.stage(ToneCurve.self, ["black": 0.1, "white": 0.9])
    var image = LinearImage(
      width: 3, height: 1, pixels: [SIMD4(0, 0, 0, 1), SIMD4(1, 1, 1, 1), SIMD4(0.2140, 0.2140, 0.2140, 1)])
    faded.apply(to: &image, context: FilmContext())
    #expect(abs(SRGB.encode(image.pixels[0].x) - 0.1) < 0.002)
    #expect(abs(SRGB.encode(image.pixels[1].x) - 0.9) < 0.002)
    #expect(abs(SRGB.encode(image.pixels[2].x) - 0.5) < 0.003)  // mid-grey on the line from 0.1 to 0.9
  }

  @Test("vignetting is 1 at the centre, falls monotonically with the radius, and is radially symmetric")
  func vignette() throws {
    let v = try Self.stage(Vignette.self, ["amount": 0.8, "field_deg": 90])
    #expect(v.gain(atRadius: 0) == 1)
    var previous: Float = 1
    for k in 1...100 {
      let g = v.gain(atRadius: Double(k) / 100)
      #expect(g <= previous && g > 0)
      previous = g
    }
    // cos⁴ of 45° at the corner of a 90° lens, eight-tenths of it.
    #expect(abs(Double(v.gain(atRadius: 1)) - (1 - 0.8 * (1 - 0.25))) < 1e-6)
    var image = LinearImage(width: 40, height: 30, fill: SIMD4(0.5, 0.5, 0.5, 1))
    v.apply(to: &image, context: FilmContext())
    for y in 0..<30 {
      for x in 0..<40 {
        #expect(image[x, y] == image[39 - x, y] && image[x, y] == image[x, 29 - y])
      }
    }
    #expect(image[20, 15].x > image[0, 0].x)
    // Each pixel's gain is the documented one at its centre's radius.
    let half = (40.0 * 40 + 30 * 30).squareRoot() / 2
    for (x, y) in [(0, 0), (7, 22), (19, 14), (33, 5)] {
      let r =
        ((Double(x) + 0.5 - 20) * (Double(x) + 0.5 - 20) + (Double(y) + 0.5 - 15) * (Double(y) + 0.5 - 15))
        .squareRoot() / half
      #expect(abs(image[x, y].x / 0.5 - v.gain(atRadius: r)) < 1e-5, "pixel \(x), \(y)")
    }
  }

  @Test("light leaks and halation only ever add light; the same seed places leaks the same")
  func onlyAddLight() throws {
    let image = Self.randomImage(seed: 3)
    for stage in [
      try Self.stage(LightLeak.self, ["count": 3, "intensity": 1.5, "size": 0.3]) as any FilmStage,
      try Self.stage(Halation.self, ["threshold": 0.5, "strength": 1]),
    ] {
      var copy = image
      stage.apply(to: &copy, context: FilmContext(seed: 11))
      #expect(zip(copy.pixels, image.pixels).allSatisfy { a, b in a.x >= b.x && a.y >= b.y && a.z >= b.z })
      #expect(copy != image)
    }
    let leak = try Self.stage(LightLeak.self, ["count": 2])
    #expect(leak.centres(seed: 4) == leak.centres(seed: 4) && leak.centres(seed: 4) != leak.centres(seed: 5))
  }

  /// Linear values of one channel of a flat grey image, at encoded `level`, after grain.
  static func grained(
    _ grain: FilmGrain, level: Double, width: Int = 256, height: Int = 256, seed: UInt64 = 9, threads: Int = 2
  ) -> [Double] {
    let linear = SRGB.decode(Float(level))
    var image = LinearImage(width: width, height: height, fill: SIMD4(linear, linear, linear, 1))
    grain.apply(to: &image, context: FilmContext(seed: seed, threads: threads))
    return image.pixels.map { Double($0.x) }
  }

  static func meanAndDeviation(_ v: [Double]) -> (Double, Double) {
    let mean = v.reduce(0, +) / Double(v.count)
    return (mean, (v.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(v.count)).squareRoot())
  }

  @Test(
    "grain: mean light kept, deviation as documented in each exposure band (linear and encoded), autocorrelation of the grain size"
  )
  func grainStatistics() throws {
    let grain = try Self.stage(FilmGrain.self, ["iso": 1600, "strength": 1])
    for level in [0.15, 0.35, 0.5, 0.7, 0.9] {
      let v = Self.grained(grain, level: level)
      let linear = Double(SRGB.decode(Float(level)))
      let (mean, sd) = Self.meanAndDeviation(v)
      #expect(abs(mean / linear - 1) < 0.005, "level \(level): mean \(mean) against \(linear)")
      #expect(abs(sd / grain.linearDeviation(at: linear) - 1) < 0.05, "level \(level): sd \(sd)")
      let (_, encodedSD) = Self.meanAndDeviation(v.map { Double(SRGB.encode(Float($0))) })
      #expect(
        abs(encodedSD / grain.deviation(at: level) - 1) < 0.1, "level \(level): encoded sd \(encodedSD)")
    }
    // Autocorrelation along rows at lags 1–3: the sampled filter's, and exp(−d²/4σ²) once the
    // grain is over a pixel (ISO 1600 on a 35 mm frame 4,032 px across: σ 1.3 px).
    for width in [1024, 4032] {
      let v = Self.grained(grain, level: 0.5, width: width, height: 48)
      let sigma = grain.grainSigma(width: width)  // linear values: the correlation is the same
      let mean = v.reduce(0, +) / Double(v.count)
      let variance = v.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(v.count)
      for lag in 1...3 {
        var sum = 0.0, count = 0.0
        for y in 0..<48 {
          for x in 0..<(width - lag) {
            sum += (v[y * width + x] - mean) * (v[y * width + x + lag] - mean)
            count += 1
          }
        }
        let measured = sum / count / variance
        let model = grain.autocorrelation(lag: lag, width: width)
        #expect(
          abs(measured - model) < 0.03, "width \(width) σ \(sigma) lag \(lag): \(measured) against \(model)")
        if sigma >= 1 {
          #expect(abs(model - exp(-Double(lag * lag) / (4 * sigma * sigma))) < 0.02)
        }
      }
    }
  }

  @Test("grain's exposure curve is Newson et al.'s Boolean model's, integrated here over a grid of the plane")
  func grainAgainstBooleanModel() throws {
    // Discs of radius 0.5 px strewn at the density giving mean coverage u, under a Gaussian
    // filter of 0.8 px: the filtered coverage's variance, summed over a fine grid of offsets
    // (not the stage's radial integral), relative to mid-grey's.
    func variance(_ u: Double) -> Double {
      let (r, sigma, step) = (0.5, 0.8, 0.005)
      var total = 0.0
      var x = -2 * r + step / 2
      while x < 2 * r {
        var y = -2 * r + step / 2
        while y < 2 * r {
          let d = (x * x + y * y).squareRoot()
          if d < 2 * r {
            let overlap = 2 * r * r * acos(d / (2 * r)) - d / 2 * (4 * r * r - d * d).squareRoot()
            let covariance = (1 - u) * (1 - u) * (pow(1 - u, -overlap / (Double.pi * r * r)) - 1)
            total +=
              covariance * exp(-d * d / (4 * sigma * sigma)) / (4 * Double.pi * sigma * sigma) * step * step
          }
          y += step
        }
        x += step
      }
      return total
    }
    let middle = variance(0.5)
    for u in [0.05, 0.1, 0.25, 0.4, 0.6, 0.75, 0.9, 0.95] {
      let reference = (variance(u) / middle).squareRoot()
      #expect(
        abs(FilmGrain.exposureCurve(at: u) / reference - 1) < 0.01,
        "u \(u): \(FilmGrain.exposureCurve(at: u)) against \(reference)")
    }
    #expect(FilmGrain.exposureCurve(at: 0) == 0 && FilmGrain.exposureCurve(at: 1) == 0)
    #expect(abs(FilmGrain.exposureCurve(at: 0.5) - 1) < 1e-12)
  }

  @Test("grain is the same for the same seed on any number of threads, and differs with the seed")
  func grainDeterminism() throws {
    let grain = try Self.stage(FilmGrain.self, ["iso": 400, "chroma": 0.4])
    let a = Self.grained(grain, level: 0.5, width: 97, height: 61, seed: 3, threads: 1)
    let b = Self.grained(grain, level: 0.5, width: 97, height: 61, seed: 3, threads: 5)
    let c = Self.grained(grain, level: 0.5, width: 97, height: 61, seed: 4, threads: 2)
    #expect(a == b)
    #expect(a != c)
  }

  @Test("parameters outside their range, unknown ones and unknown stages are errors naming the field")
  func parameterErrors() throws {
    #expect(
      throws: FilmError.invalidParameter(
        path: "<code>", field: "grain.iso", reason: "10000.0 is outside 25.0 to 6400.0")
    ) {
      try Self.stage(FilmGrain.self, ["iso": 10000])
    }
    expectError(FilmError.self, "invalidParameter") { try Self.stage(Vignette.self, ["radius": 0.5]) }
    expectError(FilmError.self, "invalidParameter") {
      try Self.stage(ToneCurve.self, ["points": [[0.5, 0], [0.2, 1]]])
    }
    expectError(FilmError.self, "invalidParameter") {
      try Self.stage(ColourMatrix.self, ["matrix": [1, 0, 0]])
    }
  }
}
