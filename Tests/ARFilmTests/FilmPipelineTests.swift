import ARFilm
import ARImage
import ARMath
import Foundation
import Testing

/// The row-streaming pipeline against whole-image references: what a look computes must not
/// depend on how the rows were split between threads, nor on where a band starts.
@Suite("Film pipeline")
struct FilmPipelineTests {
  /// A (2·reach + 1)² box mean, edges clamped, as a neighbourhood stage, with a pointwise gain
  /// before it: what the pipeline streams, checked against ``boxReference``.
  struct BoxStage: FilmStage {
    static let key = "test_box"
    let reach: Int, gain: Float

    init(_ parameters: FilmParameters) throws(FilmError) {
      reach = Int(try parameters.number("reach", in: 1...4, default: 1))
      gain = 1
    }

    init(reach: Int, gain: Float) {
      self.reach = reach
      self.gain = gain
    }

    func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
      let (r, gain) = (reach, gain)
      if gain != 1 { return .pointwise { row, _ in for x in 0..<row.width { row[x] *= gain } } }
      return .neighbourhood(
        FilmNeighbourhood(reach: r) { window, out, _ in
          for x in 0..<w {
            var sum = SIMD4<Float>.zero
            for dy in -r...r {
              for dx in -r...r { sum += window.row(dy)[min(max(x + dx, 0), w - 1)] }
            }
            out[x] = sum / Float((2 * r + 1) * (2 * r + 1))
          }
        })
    }
  }

  static func boxReference(_ image: LinearImage, reach r: Int) -> LinearImage {
    let (w, h) = (image.width, image.height)
    var out = image
    for y in 0..<h {
      for x in 0..<w {
        var sum = SIMD4<Float>.zero
        for dy in -r...r {
          for dx in -r...r {
            sum += image.pixels[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]
          }
        }
        out.pixels[y * w + x] = sum / Float((2 * r + 1) * (2 * r + 1))
      }
    }
    return out
  }

  @Test(
    "neighbourhood stages streamed in bands of rows equal the whole-image result, on any number of threads")
  func streamedNeighbourhoods() throws {
    // 37 rows on 5 threads: twenty bands of one or two rows, each reading past its edges.
    let image = FilmStageTests.randomImage(width: 23, height: 37, seed: 5)
    let look = FilmLook(
      name: "boxes",
      stages: [
        BoxStage(reach: 0, gain: 0.5), BoxStage(reach: 2, gain: 1), BoxStage(reach: 0, gain: 3),
        BoxStage(reach: 1, gain: 1),
      ])
    var expected = image
    for k in expected.pixels.indices { expected.pixels[k] *= 0.5 }
    expected = Self.boxReference(expected, reach: 2)
    for k in expected.pixels.indices { expected.pixels[k] *= 3 }
    expected = Self.boxReference(expected, reach: 1)
    for threads in [1, 2, 5] {
      var streamed = image
      look.apply(to: &streamed, context: FilmContext(threads: threads))
      #expect(streamed == expected, "\(threads) threads")
    }
    // One row high: every window row is the same row.
    let line = FilmStageTests.randomImage(width: 9, height: 1, seed: 6)
    var streamed = line
    BoxStage(reach: 3, gain: 1).apply(to: &streamed, context: FilmContext(threads: 3))
    #expect(streamed == Self.boxReference(line, reach: 3))
  }

  /// A separable Gaussian mean of `sigma` over a plane, summed directly: at each value, the
  /// weighted mean over the part of the neighbourhood inside the plane.
  static func gaussianReference(_ plane: [Double], width w: Int, height h: Int, sigma: Double) -> [Double] {
    let r = Int((4 * sigma).rounded(.up))
    let weights = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    var across = plane, down = plane
    for y in 0..<h {
      for x in 0..<w {
        var (sum, inside) = (0.0, 0.0)
        for (k, weight) in weights.enumerated() where x + k - r >= 0 && x + k - r < w {
          sum += weight * plane[y * w + x + k - r]
          inside += weight
        }
        across[y * w + x] = sum / inside
      }
    }
    for y in 0..<h {
      for x in 0..<w {
        var (sum, inside) = (0.0, 0.0)
        for (k, weight) in weights.enumerated() where y + k - r >= 0 && y + k - r < h {
          sum += weight * across[(y + k - r) * w + x]
          inside += weight
        }
        down[y * w + x] = sum / inside
      }
    }
    return down
  }

  @Test("a wide stage's context is the Gaussian-weighted mean of its input, from a plane of block means")
  func contextPlanes() throws {
    // Halation with no threshold adds colour × strength × the blurred luminance: the glow
    // recovered from the output is the context plane, against a direct Gaussian blur.
    let (w, h) = (240, 160)
    var random = SplitMix64(seed: 8)
    var image = LinearImage(width: w, height: h, fill: SIMD4(0.05, 0.05, 0.05, 1))
    for _ in 0..<40 {
      let (cx, cy) = (Int.random(in: 0..<w, using: &random), Int.random(in: 0..<h, using: &random))
      for y in max(0, cy - 3)..<min(h, cy + 4) {
        for x in max(0, cx - 3)..<min(w, cx + 4) { image.pixels[y * w + x] = SIMD4(1.5, 1.5, 1.5, 1) }
      }
    }
    for radius in [0.01, 0.04] {  // σ 2.4 px (a full-size plane) and 9.6 px (blocks of 3)
      let halation = try FilmStageTests.stage(
        Halation.self, ["threshold": 0, "radius": radius, "strength": 1, "colour": [1, 0, 0]])
      var glowing = image
      halation.apply(to: &glowing, context: FilmContext(threads: 3))
      let glow = zip(glowing.pixels, image.pixels).map { Double($0.x - $1.x) }
      let luminance = image.pixels.map { Double(0.2126 * $0.x + 0.7152 * $0.y + 0.0722 * $0.z) }
      let reference = Self.gaussianReference(luminance, width: w, height: h, sigma: radius * Double(w))
      // Block means place a value at its block's centre, up to (f − 1)/2 px from where it was
      // (f = ⌈σ/3⌉): the bound is the reference's change over that distance, plus 2% of its
      // peak.
      let peak = reference.max()!, f = max(1, Int((radius * Double(w) / 3).rounded(.up)))
      let shift = Double(f - 1) / 2 + 0.25
      var worst = 0.0
      for y in 0..<h {
        for x in 0..<w {
          var slope = 0.0
          for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (min(max(x + dx, 0), w - 1), min(max(y + dy, 0), h - 1))
            slope = max(slope, abs(reference[ny * w + nx] - reference[y * w + x]))
          }
          let excess = abs(glow[y * w + x] - reference[y * w + x]) - shift * slope
          worst = max(worst, excess)
        }
      }
      #expect(worst < 0.02 * peak, "radius \(radius): worst \(worst) beyond the shift's bound, peak \(peak)")
      #expect(zip(glowing.pixels, image.pixels).allSatisfy { $0.y == $1.y && $0.w == $1.w })
    }
    // A flat input gives a flat context: the same glow everywhere, to rounding.
    let flat = LinearImage(width: 101, height: 67, fill: SIMD4(0.5, 0.5, 0.5, 1))
    var lit = flat
    try FilmStageTests.stage(Halation.self, ["threshold": 0, "radius": 0.05, "strength": 1])
      .apply(to: &lit, context: FilmContext())
    let reds = lit.pixels.map(\.x)
    #expect(reds.max()! - reds.min()! < 1e-5)
  }

  @Test(
    "soften at full strength is the Gaussian blur with the edges repeated, at half strength the mean with the image"
  )
  func soften() throws {
    // 53 columns: sixteen-column runs, a four-column tail, and clamped columns at both sides.
    let image = FilmStageTests.randomImage(width: 53, height: 31, seed: 12)
    let sigma = 1.7
    let r = Int((3 * sigma).rounded(.up))
    let raw = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let weights = raw.map { $0 / raw.reduce(0, +) }
    let (w, h) = (image.width, image.height)
    var across = [SIMD4<Double>](repeating: .zero, count: w * h), expected = across
    for y in 0..<h {
      for x in 0..<w {
        for (k, weight) in weights.enumerated() {
          across[y * w + x] += SIMD4<Double>(image.pixels[y * w + min(max(x + k - r, 0), w - 1)]) * weight
        }
      }
    }
    for y in 0..<h {
      for x in 0..<w {
        for (k, weight) in weights.enumerated() {
          expected[y * w + x] += across[min(max(y + k - r, 0), h - 1) * w + x] * weight
        }
      }
    }
    for (strength, threads) in [(Float(1), 1), (0.5, 4)] {
      var soft = image
      Soften(sigma: sigma, strength: strength).apply(to: &soft, context: FilmContext(threads: threads))
      for i in soft.pixels.indices {
        let blur = SIMD4<Float>(expected[i])
        let want = image.pixels[i] + (blur - image.pixels[i]) * strength
        #expect(abs(soft.pixels[i].x - want.x) < 1e-5 && abs(soft.pixels[i].z - want.z) < 1e-5, "pixel \(i)")
        #expect(soft.pixels[i].w == image.pixels[i].w)
      }
    }
  }

  @Test("grain's blocks show the template from different places: no two blocks of an image alike")
  func grainBlocksDiffer() throws {
    let grain = try FilmStageTests.stage(FilmGrain.self, ["iso": 800])
    let (w, h) = (512, 256)
    let level = SRGB.decode(0.5)
    var image = LinearImage(width: w, height: h, fill: SIMD4(level, level, level, 1))
    grain.apply(to: &image, context: FilmContext(seed: 3))
    let block = 64
    var blocks: [[Double]] = []
    for by in 0..<(h / block) {
      for bx in 0..<(w / block) {
        var values: [Double] = []
        for y in 0..<block {
          for x in 0..<block { values.append(Double(image.pixels[(by * block + y) * w + bx * block + x].x)) }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)).squareRoot()
        blocks.append(values.map { ($0 - mean) / deviation })
      }
    }
    var worst = 0.0
    for a in blocks.indices {
      for b in blocks.indices where b > a {
        worst = max(worst, abs(zip(blocks[a], blocks[b]).map(*).reduce(0, +)))
      }
    }
    #expect(worst < 0.15, "the most alike blocks correlate \(worst)")
  }
}
