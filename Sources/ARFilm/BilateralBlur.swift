import ARMath
import CVectorKernels
import Foundation

/// An edge-preserving softening: each pixel the mean of its neighbours weighted by distance
/// and by how close their display-encoded luminance is to its own (a bilateral filter, Tomasi
/// and Manduchi 1998), so fine texture softens and edges stay. Parameters: `sigma_px` (the
/// spatial 1-σ, 0…3 pixels; 0 changes nothing) and `sigma_range` (the luminance 1-σ in
/// encoded units, 0.01…1, default 0.1).
///
/// The range weight of a luminance difference d is (1 − d²/16σ²)⁸ within 4σ and 0 beyond: the
/// Gaussian exp(−d²/2σ²)'s compactly supported stand-in (within 0.036 of it everywhere, equal at
/// d = 0), a smooth edge-stopping function as Tukey's biweight is, at five vector operations
/// for four pixels instead of an exponential's dozen.
public struct BilateralBlur: FilmStage {
  /// The stage's key in a preset file: `bilateral_blur`.
  public static let key = "bilateral_blur"
  /// The spatial 1-σ in pixels (`sigma_px`) and the luminance 1-σ in display-encoded units
  /// (`sigma_range`).
  public let sigma: Double, rangeSigma: Double

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["sigma_px", "sigma_range"])
    sigma = try p.number("sigma_px", in: 0...3, default: 0.8)
    rangeSigma = try p.number("sigma_range", in: 0.01...1, default: 0.1)
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width w: Int, height h: Int, context: FilmContext) -> FilmStep? {
    guard sigma > 0 else { return nil }
    // The kernel reaches 2σ (rounded): the weights beyond are under 2% of the centre's.
    let r = max(1, Int((2 * sigma).rounded()))
    var weights: [Float] = []
    for dy in -r...r {
      for dx in -r...r { weights.append(Float(exp(-Double(dx * dx + dy * dy) / (2 * sigma * sigma)))) }
    }
    let spatial = weights
    // The range weight (1 − d²/16σ²)⁸: one minus the scaled square, three squarings.
    let rangeScale = Float(1 / (16 * rangeSigma * rangeSigma))
    // Each input row's key: √Y, which stands for the encoded luminance (within a few
    // hundredths) at a square root's cost.
    let keys: FilmRowValues = { row, out in
      for x in FourPixels.columns(row) {
        let four = FourPixels(row, x)
        storeFour(LaneMath.squareRoot(LaneMath.atLeastZero(four.luminance)), out, x)
      }
    }
    let wide = context.wideVectors
    let neighbourhood = FilmNeighbourhood(reach: r, planes: 1, derive: keys) { window, out, _ in
      spatial.withUnsafeBufferPointer { spatialWeights in
        BilateralRowFilter(
          window: window, out: out, width: w, radius: r, spatial: spatialWeights.baseAddress!,
          rangeScale: rangeScale, wide: wide
        ).filterRow()
      }
    }
    return .neighbourhood(neighbourhood)
  }
}

/// One output row of a ``BilateralBlur``: four pixels at a time, the sides clamped, the common
/// radius 1 written out (and in AVX2 where the CPU has it).
private struct BilateralRowFilter {
  let window: FilmWindow
  let out: FilmRow
  let width: Int
  let radius: Int
  /// The spatial weights, row by row over the (2r + 1)² taps.
  let spatial: UnsafePointer<Float>
  /// 1 / 16σ² of the range weight (1 − d²/16σ²)⁸.
  let rangeScale: Float
  /// Whether the AVX2 kernel may run.
  let wide: Bool

  @inline(__always)
  func filterRow() {
    var x = 0
    while x < min(radius, width) {
      filterFour(x, clamped: true)
      x += 4
    }
    if radius == 1 {
      x = filterRadiusOne(from: x)
    } else {
      while x + 4 <= width - radius {
        filterFour(x, clamped: false)
        x += 4
      }
    }
    while x < width {
      filterFour(x, clamped: true)
      x += 4
    }
  }

  /// The range weight of key differences `d`, times the spatial weight.
  @inline(__always)
  func weight(_ d: SIMD4<Float>, _ spatialWeight: Float) -> SIMD4<Float> {
    let near = LaneMath.atLeastZero(1 - d * d * rangeScale)
    let square = near * near
    let fourth = square * square
    return fourth * fourth * spatialWeight
  }

  /// Four pixels from `x`, columns clamped at the sides when `clamped`. Inlined with `clamped`
  /// false for the common case, so that its taps unroll and their range weights overlap.
  @inline(__always)
  func filterFour(_ x: Int, clamped: Bool) {
    @inline(__always) func load(_ p: UnsafePointer<Float>, _ at: Int) -> SIMD4<Float> {
      if !clamped { return loadFour(p, at) }
      @inline(__always) func c(_ i: Int) -> Int { min(max(i, 0), width - 1) }
      return SIMD4(p[c(at)], p[c(at + 1)], p[c(at + 2)], p[c(at + 3)])
    }
    let r = radius
    let centre = load(window.plane(0, 0), x)
    var (red, green, blue, total) = (
      SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero
    )
    var k = 0
    for dy in -r...r {
      let (row, keys) = (window.row(dy), window.plane(0, dy))
      for dx in -r...r {
        let w = weight(load(keys, x + dx) - centre, spatial[k])
        total += w
        red += load(row.red, x + dx) * w
        green += load(row.green, x + dx) * w
        blue += load(row.blue, x + dx) * w
        k += 1
      }
    }
    store(red, green, blue, total, x)
  }

  /// The weighted sums normalised into the output, alpha copied from the centre row.
  @inline(__always)
  func store(
    _ red: SIMD4<Float>, _ green: SIMD4<Float>, _ blue: SIMD4<Float>, _ total: SIMD4<Float>, _ x: Int
  ) {
    let inverse = 1 / total
    storeFour(red * inverse, out.red, x)
    storeFour(green * inverse, out.green, x)
    storeFour(blue * inverse, out.blue, x)
    storeFour(loadFour(window.row(0).alpha, x), out.alpha, x)
  }

  /// Radius 1 from column `x` to where clamping starts: nine taps, no loop, no clamping, so
  /// that the compiler interleaves their independent weight chains; eight columns at a time in
  /// AVX2 first where it may. Returns the first column left.
  @inline(__always)
  func filterRadiusOne(from start: Int) -> Int {
    var x = start
    let (corner, side, middle) = (spatial[0], spatial[1], spatial[4])
    if wide && x + 8 <= width - 1 {
      let end = x + (width - 1 - x) / 8 * 8
      radiusOneAVX2(from: x, to: end, weights: (corner, side, middle))
      x = end
    }
    let (above, centreRow, below) = (window.row(-1), window.row(0), window.row(1))
    let (keysAbove, centreKeys, keysBelow) = (window.plane(0, -1), window.plane(0, 0), window.plane(0, 1))
    while x + 4 <= width - 1 {
      let centre = loadFour(centreKeys, x)
      var (red, green, blue) = (
        loadFour(centreRow.red, x) * middle, loadFour(centreRow.green, x) * middle,
        loadFour(centreRow.blue, x) * middle
      )
      var total = SIMD4<Float>(repeating: middle)
      @inline(__always) func tap(_ row: FilmRow, _ keys: UnsafePointer<Float>, _ at: Int, _ spatial: Float) {
        let w = weight(loadFour(keys, at) - centre, spatial)
        total += w
        red += loadFour(row.red, at) * w
        green += loadFour(row.green, at) * w
        blue += loadFour(row.blue, at) * w
      }
      tap(centreRow, centreKeys, x - 1, side)
      tap(centreRow, centreKeys, x + 1, side)
      tap(above, keysAbove, x, side)
      tap(below, keysBelow, x, side)
      tap(above, keysAbove, x - 1, corner)
      tap(above, keysAbove, x + 1, corner)
      tap(below, keysBelow, x - 1, corner)
      tap(below, keysBelow, x + 1, corner)
      store(red, green, blue, total, x)
      x += 4
    }
    return x
  }

  /// Columns `start ..< end` (a multiple of eight apart) by the AVX2 kernel: the same taps in
  /// the same order as ``filterRadiusOne(from:)``'s.
  func radiusOneAVX2(from start: Int, to end: Int, weights spatialWeights: (Float, Float, Float)) {
    withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: 13) { planes in
      for k in 0..<3 {
        let row = window.row(k - 1)
        planes[4 * k] = UnsafePointer(row.red)
        planes[4 * k + 1] = UnsafePointer(row.green)
        planes[4 * k + 2] = UnsafePointer(row.blue)
        planes[4 * k + 3] = window.plane(0, k - 1)
      }
      planes[12] = UnsafePointer(window.row(0).alpha)
      withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 4) { outputs in
        (outputs[0], outputs[1], outputs[2], outputs[3]) = (out.red, out.green, out.blue, out.alpha)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3) { weights in
          (weights[0], weights[1], weights[2]) = spatialWeights
          arscene_bilateral3_avx2(
            planes.baseAddress!, weights.baseAddress!, rangeScale, start, end, outputs.baseAddress!)
        }
      }
    }
  }
}
