import ARImage
import ARMath
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

  public func apply(to image: inout LinearImage, context: FilmContext) {
    guard shadows != 0 || highlights != 0 else { return }
    let encode = ChannelTable { Encoding.encode($0) }
    let encoded = image.luminancePlane(threads: context.threads) { encode($0) }
    let local = GaussianBlur.blur(
      encoded, width: image.width, height: image.height, sigma: radius * Double(image.width),
      threads: context.threads)
    let (s, h, width) = (shadows, highlights, image.width)
    encoded.withUnsafeBufferPointer { e in
      local.withUnsafeBufferPointer { l in
        let (ep, lp) = (UnsafeSendablePointer(e.baseAddress!), UnsafeSendablePointer(l.baseAddress!))
        image.forEachBand(threads: context.threads) { buffer, rows in
          for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
            let (y, n) = (ep.pointer[i], lp.pointer[i])
            let change = 2 * y * (1 - y) * (s * (1 - n) * (1 - n) - h * n * n)
            guard change != 0, y > 0 else { continue }
            let target = min(max(y + change, 0), 1)
            let linearTarget = Encoding.decodeFast(target)
            let linear = (buffer[i] * luminanceWeights).sum()
            guard linear > 0 else { continue }
            let gain = linearTarget / linear
            buffer[i] = SIMD4(buffer[i].x * gain, buffer[i].y * gain, buffer[i].z * gain, buffer[i].w)
          }
        }
      }
    }
  }
}

/// An edge-preserving softening: each pixel the mean of its neighbours weighted by distance
/// and by how close their display-encoded luminance is to its own (a bilateral filter, Tomasi
/// and Manduchi 1998), so fine texture softens and edges stay. Parameters: `sigma_px` (the
/// spatial 1-σ, 0…3 pixels; 0 changes nothing) and `sigma_range` (the luminance 1-σ in
/// encoded units, 0.01…1, default 0.1).
public struct BilateralBlur: FilmStage {
  public static let key = "bilateral_blur"
  public let sigma: Double, rangeSigma: Double

  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["sigma_px", "sigma_range"])
    sigma = try p.number("sigma_px", in: 0...3, default: 0.8)
    rangeSigma = try p.number("sigma_range", in: 0.01...1, default: 0.1)
  }

  public func apply(to image: inout LinearImage, context: FilmContext) {
    guard sigma > 0 else { return }
    // The kernel reaches 2σ (rounded): the weights beyond are under 2% of the centre's.
    let radius = max(1, Int((2 * sigma).rounded()))
    let (w, h) = (image.width, image.height)
    // √Y stands for the encoded luminance (within a few hundredths), at a square root's cost.
    let key = image.luminancePlane(threads: context.threads) { $0.squareRoot() }
    var weights: [Float] = []
    for dy in -radius...radius {
      for dx in -radius...radius {
        let d2 = Double(dx * dx + dy * dy)
        weights.append(Float(exp(-d2 / (2 * sigma * sigma))))
      }
    }
    let spatial = weights
    // The range weight by squared luminance difference, tabulated to three σ (beyond, 0).
    let rangeLimit = Float(9 * rangeSigma * rangeSigma), rangeSteps = 1024
    let rangeWeights = (0...rangeSteps).map { k in
      Float(exp(-Double(k) / Double(rangeSteps) * 9 / 2))
    }
    let rangeIndex = Float(rangeSteps) / rangeLimit
    let source = image.pixels
    source.withUnsafeBufferPointer { src in
      key.withUnsafeBufferPointer { k in
        spatial.withUnsafeBufferPointer { sw in
          rangeWeights.withUnsafeBufferPointer { rw in
            let (sp, kp) = (UnsafeSendablePointer(src.baseAddress!), UnsafeSendablePointer(k.baseAddress!))
            let (swp, rwp) = (UnsafeSendablePointer(sw.baseAddress!), UnsafeSendablePointer(rw.baseAddress!))
            let side = 2 * radius + 1, limit = Float(rangeSteps)
            image.forEachBand(threads: context.threads) { buffer, rows in
              // The neighbours' offsets, clamped at the image's edges.
              var columns = [Int](repeating: 0, count: side)
              for y in rows {
                let interiorRow = y >= radius && y < h - radius
                for x in 0..<w {
                  let centre = kp.pointer[y * w + x]
                  // Away from the edges: no clamping, the window's rows one stride apart.
                  if interiorRow && x >= radius && x < w - radius {
                    var sum = SIMD4<Float>.zero, total: Float = 0
                    var tap = 0
                    var j = (y - radius) * w + x - radius
                    for _ in 0..<side {
                      for dx in 0..<side {
                        let d = kp.pointer[j + dx] - centre
                        let weight = swp.pointer[tap] * rwp.pointer[Int(min(d * d * rangeIndex, limit))]
                        sum += sp.pointer[j + dx] * weight
                        total += weight
                        tap += 1
                      }
                      j += w
                    }
                    let c = sum / total
                    buffer[y * w + x] = SIMD4(c.x, c.y, c.z, sp.pointer[y * w + x].w)
                    continue
                  }
                  for dx in 0..<side { columns[dx] = min(max(x + dx - radius, 0), w - 1) }
                  var sum = SIMD4<Float>.zero, total: Float = 0
                  var tap = 0
                  for dy in 0..<side {
                    let row = min(max(y + dy - radius, 0), h - 1) * w
                    for dx in 0..<side {
                      let j = row + columns[dx]
                      let d = kp.pointer[j] - centre
                      let weight = swp.pointer[tap] * rwp.pointer[Int(min(d * d * rangeIndex, limit))]
                      sum += sp.pointer[j] * weight
                      total += weight
                      tap += 1
                    }
                  }
                  let c = sum / total
                  buffer[y * w + x] = SIMD4(c.x, c.y, c.z, sp.pointer[y * w + x].w)
                }
              }
            }
          }
        }
      }
    }
  }
}

/// A 3D or 1D `.cube` LUT inside a look, applied to the display-encoded values as grading tools
/// do (and back to linear light after). Parameters: `file` (a path, relative to the preset
/// file's folder), `interpolation` (`trilinear` or `tetrahedral`, default trilinear) and
/// `strength` (0…1, the mix with the image; 0 changes nothing).
public struct LUTStage: PointwiseFilmStage {
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

  public func kernel(width: Int, height: Int, context: FilmContext) -> FilmKernel? {
    guard strength > 0, !lut.isIdentity else { return nil }
    let encode = ChannelTable { Encoding.encode($0) }
    let (lut, interpolation, strength) = (self.lut, self.interpolation, self.strength)
    return colourKernel(width: width) { c in
      let e = SIMD3(encode(c.x), encode(c.y), encode(c.z))
      var out = lut.apply(e, interpolation: interpolation)
      if strength < 1 { out = e + (out - e) * strength }
      return SIMD3(Encoding.decodeFast(out.x), Encoding.decodeFast(out.y), Encoding.decodeFast(out.z))
    }
  }
}
