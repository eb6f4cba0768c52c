import ARImage
import ARMath
import CVectorKernels
import Foundation

/// Shadow and highlight adjustment by the neighbourhood's level, as photo editors' sliders:
/// dark regions brightened and bright regions held back, each pixel scaled in proportion so
/// colours keep their hue. Parameters: `shadows` (−1…1, positive lifts the shadows), `highlights`
/// (−1…1, positive recovers the highlights) and `radius` (the neighbourhood's 1-σ as a fraction
/// of the image's width, 0.002…0.1, default 0.02). Zero for both changes nothing.
///
/// On display-encoded luminance Y (0…1) with the neighbourhood's L: Y + s·(1 − L)²·Y(1 − Y)·2 −
/// h·L²·Y(1 − Y)·2, which leaves black and white where they are.
public struct ShadowsHighlights: FilmStage {
  public static let key = "shadows_highlights"
  public let shadows: Float, highlights: Float, radius: Double

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["shadows", "highlights", "radius"])
    shadows = Float(try p.number("shadows", in: -1...1, default: 0))
    highlights = Float(try p.number("highlights", in: -1...1, default: 0))
    radius = try p.number("radius", in: 0.002...0.1, default: 0.02)
  }

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard shadows != 0 || highlights != 0 else { return nil }
    let encode = ChannelTable { Encoding.encode($0) }
    let (s, h) = (shadows, highlights)
    let values: FilmRowValues = { row, out in
      encode.entries.withUnsafeBufferPointer { e in
        for x in FourPixels.columns(row) {
          let four = FourPixels(row, x)
          storeFour(ChannelTable.look(four: four.luminance, in: e.baseAddress!), out, x)
        }
      }
    }
    let request = FilmContextRequest(sigma: radius * Double(width), value: values) { plane in
      { row, y in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: row.paddedWidth) { local in
          plane.row(y, into: local.baseAddress!)
          encode.entries.withUnsafeBufferPointer { e in
            Encoding.decodeTable.withUnsafeBufferPointer { d in
              for x in FourPixels.columns(row) {
                var four = FourPixels(row, x)
                let linear = four.luminance
                let v = ChannelTable.look(four: linear, in: e.baseAddress!)
                let n = loadFour(local.baseAddress!, x)
                let dark = (1 - n) * (1 - n) * s, bright = n * n * h
                let change: SIMD4<Float> = 2 * v * (1 - v) * (dark - bright)
                let target = Encoding.decodeFast(v + change, in: d.baseAddress!)
                // Unchanged where nothing changes, or where black (no colour to scale).
                let changing =
                  ~LaneMath.equalMask(change, .zero) & LaneMath.greaterMask(v, .zero)
                  & LaneMath.greaterMask(linear, .zero)
                let gain = LaneMath.selected(target / linear, SIMD4(repeating: 1), where: changing)
                four.red *= gain
                four.green *= gain
                four.blue *= gain
                four.store(row, x)
              }
            }
          }
        }
      }
    }
    return .wide(request)
  }
}

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
  public static let key = "bilateral_blur"
  public let sigma: Double, rangeSigma: Double

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["sigma_px", "sigma_range"])
    sigma = try p.number("sigma_px", in: 0...3, default: 0.8)
    rangeSigma = try p.number("sigma_range", in: 0.01...1, default: 0.1)
  }

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
        let swp = spatialWeights.baseAddress!
        let centreKeys = window.plane(0, 0)
        // Four pixels from `x`, columns clamped at the sides when `clamped`. Inlined with a
        // constant radius and `clamped` false for the common case, so that its taps unroll and
        // their range weights overlap.
        @inline(__always) func filterFour(_ x: Int, _ r: Int, clamped: Bool) {
          @inline(__always) func load(_ p: UnsafePointer<Float>, _ at: Int) -> SIMD4<Float> {
            if !clamped { return loadFour(p, at) }
            @inline(__always) func c(_ i: Int) -> Int { min(max(i, 0), w - 1) }
            return SIMD4(p[c(at)], p[c(at + 1)], p[c(at + 2)], p[c(at + 3)])
          }
          let centre = load(centreKeys, x)
          var (red, green, blue, total) = (
            SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero, SIMD4<Float>.zero
          )
          var k = 0
          for dy in -r...r {
            let (row, keys) = (window.row(dy), window.plane(0, dy))
            for dx in -r...r {
              let d = load(keys, x + dx) - centre
              let near = LaneMath.atLeastZero(1 - d * d * rangeScale)
              let square = near * near
              let fourth = square * square
              let weight = fourth * fourth * swp[k]
              total += weight
              red += load(row.red, x + dx) * weight
              green += load(row.green, x + dx) * weight
              blue += load(row.blue, x + dx) * weight
              k += 1
            }
          }
          let inverse = 1 / total
          storeFour(red * inverse, out.red, x)
          storeFour(green * inverse, out.green, x)
          storeFour(blue * inverse, out.blue, x)
          storeFour(loadFour(window.row(0).alpha, x), out.alpha, x)
        }
        var x = 0
        while x < min(r, w) {
          filterFour(x, r, clamped: true)
          x += 4
        }
        if r == 1 {
          // The common radius written out: nine taps, no loop, no clamping, so that the
          // compiler interleaves their independent weight chains.
          let (above, centreRow, below) = (window.row(-1), window.row(0), window.row(1))
          let (keysAbove, keysBelow) = (window.plane(0, -1), window.plane(0, 1))
          let (corner, side, middle) = (swp[0], swp[1], swp[4])
          if wide && x + 8 <= w - 1 {
            // Eight columns at a time in AVX2, the same taps in the same order.
            let end = x + (w - 1 - x) / 8 * 8
            withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: 13) { planes in
              for k in 0..<3 {
                let row = window.row(k - 1)
                planes[4 * k] = UnsafePointer(row.red)
                planes[4 * k + 1] = UnsafePointer(row.green)
                planes[4 * k + 2] = UnsafePointer(row.blue)
                planes[4 * k + 3] = window.plane(0, k - 1)
              }
              planes[12] = UnsafePointer(centreRow.alpha)
              withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>?.self, capacity: 4) { outputs in
                (outputs[0], outputs[1], outputs[2], outputs[3]) = (out.red, out.green, out.blue, out.alpha)
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 3) { weights in
                  (weights[0], weights[1], weights[2]) = (corner, side, middle)
                  arscene_bilateral3_avx2(
                    planes.baseAddress!, weights.baseAddress!, rangeScale, x, end, outputs.baseAddress!)
                }
              }
            }
            x = end
          }
          while x + 4 <= w - 1 {
            let centre = loadFour(centreKeys, x)
            var (red, green, blue) = (
              loadFour(centreRow.red, x) * middle, loadFour(centreRow.green, x) * middle,
              loadFour(centreRow.blue, x) * middle
            )
            var total = SIMD4<Float>(repeating: middle)
            @inline(__always) func tap(
              _ row: FilmRow, _ keys: UnsafePointer<Float>, _ at: Int, _ spatial: Float
            ) {
              let d = loadFour(keys, at) - centre
              let near = LaneMath.atLeastZero(1 - d * d * rangeScale)
              let square = near * near
              let fourth = square * square
              let weight = fourth * fourth * spatial
              total += weight
              red += loadFour(row.red, at) * weight
              green += loadFour(row.green, at) * weight
              blue += loadFour(row.blue, at) * weight
            }
            tap(centreRow, centreKeys, x - 1, side)
            tap(centreRow, centreKeys, x + 1, side)
            tap(above, keysAbove, x, side)
            tap(below, keysBelow, x, side)
            tap(above, keysAbove, x - 1, corner)
            tap(above, keysAbove, x + 1, corner)
            tap(below, keysBelow, x - 1, corner)
            tap(below, keysBelow, x + 1, corner)
            let inverse = 1 / total
            storeFour(red * inverse, out.red, x)
            storeFour(green * inverse, out.green, x)
            storeFour(blue * inverse, out.blue, x)
            storeFour(loadFour(centreRow.alpha, x), out.alpha, x)
            x += 4
          }
        } else {
          while x + 4 <= w - r {
            filterFour(x, r, clamped: false)
            x += 4
          }
        }
        while x < w {
          filterFour(x, r, clamped: true)
          x += 4
        }
      }
    }
    return .neighbourhood(neighbourhood)
  }
}

/// A 3D or 1D `.cube` LUT inside a look, applied to the display-encoded values as grading tools
/// do (and back to linear light after). Parameters: `file` (a path, relative to the preset
/// file's folder), `interpolation` (`trilinear` or `tetrahedral`, default trilinear) and
/// `strength` (0…1, the mix with the image; 0 changes nothing).
public struct LUTStage: FilmStage {
  public static let key = "lut"
  public let lut: CubeLUT, interpolation: CubeLUT.Interpolation, strength: Float

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["file", "interpolation", "strength"])
    guard let file = try p.string("file") else { throw p.fail("file", "missing") }
    let folder = (p.path as NSString).deletingLastPathComponent
    let path = file.hasPrefix("/") || folder.isEmpty ? file : folder + "/" + file
    lut = try CubeLUT(path: path)
    interpolation = CubeLUT.Interpolation(
      rawValue: try p.choice("interpolation", ["trilinear", "tetrahedral"], default: "trilinear"))!
    strength = Float(try p.number("strength", in: 0...1, default: 1))
  }

  public init(lut: CubeLUT, interpolation: CubeLUT.Interpolation = .trilinear, strength: Float = 1) {
    self.lut = lut
    self.interpolation = interpolation
    self.strength = strength
  }

  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    guard strength > 0, !lut.isIdentity else { return nil }
    let encode = ChannelTable { Encoding.encode($0) }
    let (lut, interpolation, strength) = (self.lut, self.interpolation, self.strength)
    return colourStep { c in
      let e = SIMD3(encode(c.x), encode(c.y), encode(c.z))
      var out = lut.apply(e, interpolation: interpolation)
      if strength < 1 { out = e + (out - e) * strength }
      return SIMD3(Encoding.decodeFast(out.x), Encoding.decodeFast(out.y), Encoding.decodeFast(out.z))
    }
  }
}
