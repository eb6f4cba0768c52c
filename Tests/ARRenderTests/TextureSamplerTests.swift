import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

@testable import ARRender

/// The fixed-point trilinear sampler against a plain floating-point one written from the
/// definition (texel centres at +0.5, v up, 8-bit sub-texel and level fractions as GPUs use).
@Suite("Texture sampling")
struct TextureSamplerTests {
  /// Linear levels by halving with a 2×2 box, clamped at odd edges.
  func levels(_ image: RGBA8Image) -> [(texels: [SIMD4<Float>], width: Int, height: Int)] {
    var chain = [(image.linear.pixels, image.width, image.height)]
    while chain.last!.1 > 1 || chain.last!.2 > 1 {
      let (level, width, height) = chain.last!
      let w = (width + 1) / 2, h = (height + 1) / 2
      var next: [SIMD4<Float>] = []
      for y in 0..<h {
        for x in 0..<w {
          let x1 = min(2 * x + 1, width - 1), y1 = min(2 * y + 1, height - 1)
          next.append(
            (level[2 * y * width + 2 * x] + level[2 * y * width + x1] + level[y1 * width + 2 * x]
              + level[y1 * width + x1]) * 0.25)
        }
      }
      chain.append((next, w, h))
    }
    return chain.map { (texels: $0.0, width: $0.1, height: $0.2) }
  }

  func reference(
    _ chain: [(texels: [SIMD4<Float>], width: Int, height: Int)], clamp: Bool, _ uv: SIMD2<Float>,
    level: Float
  ) -> SIMD4<Float> {
    func bilinear(_ index: Int) -> SIMD4<Float> {
      let (texels, w, h) = chain[index]
      var s = uv.x, t = uv.y
      if clamp {
        (s, t) = (min(max(s, 0), 1), min(max(t, 0), 1))
      } else {
        (s, t) = (s - s.rounded(.down), t - t.rounded(.down))
      }
      t = 1 - t
      let x = ((s * Float(w) - 0.5) * 256).rounded(.down) / 256,
        y = ((t * Float(h) - 0.5) * 256).rounded(.down) / 256
      let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
      let ax = x - Float(x0), ay = y - Float(y0)
      func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
        let ii = clamp ? min(max(i, 0), w - 1) : (i + w) % w, jj = clamp ? min(max(j, 0), h - 1) : (j + h) % h
        return texels[jj * w + ii]
      }
      let top = texel(x0, y0) * (1 - ax) + texel(x0 + 1, y0) * ax
      let bottom = texel(x0, y0 + 1) * (1 - ax) + texel(x0 + 1, y0 + 1) * ax
      return top * (1 - ay) + bottom * ay
    }
    let l = min(max(level, 0), Float(chain.count - 1))
    let l0 = Int(l), f = ((l - Float(l0)) * 256).rounded(.down) / 256
    return f > 0 ? bilinear(l0) * (1 - f) + bilinear(l0 + 1) * f : bilinear(l0)
  }

  func randomImage(_ rng: inout SplitMix64, _ w: Int, _ h: Int) -> RGBA8Image {
    RGBA8Image(
      width: w, height: h,
      pixels: (0..<(w * h)).map { _ in
        SIMD4(
          UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
          UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng))
      })
  }

  @Test("matches floating-point trilinear filtering, repeat and clamp, odd and power-of-two sizes")
  func matchesFloatingPoint() {
    var rng = SplitMix64(seed: 4404)
    var worst: Float = 0
    for (w, h) in [(1, 1), (3, 5), (8, 8), (16, 4), (7, 32)] {
      let image = randomImage(&rng, w, h)
      let chain = levels(image)
      for clamp in [false, true] {
        var reference = TextureReference(path: "unused.png")
        reference.clamp = clamp
        let texture = MipmappedTexture(image, reference: reference)
        let view = texture.view
        for _ in 0..<2000 {
          let uv = SIMD2(Float.random(in: -3...3, using: &rng), Float.random(in: -3...3, using: &rng))
          let level = Float.random(in: -1...Float(chain.count), using: &rng)
          let e = view.sample(uv, level: level) - self.reference(chain, clamp: clamp, uv, level: level)
          let d = max(e.max(), -e.min())
          worst = max(worst, d)
        }
      }
    }
    // 15-bit texels and weights truncated to 15 bits: well below half an 8-bit step.
    #expect(worst < 5e-4, "largest difference \(worst)")
  }

  @Test("four at a time, lanes on different levels, equals one at a time; any input is safe")
  func spansMatchSingleSamples() {
    var rng = SplitMix64(seed: 4405)
    let texture = MipmappedTexture(randomImage(&rng, 64, 16), reference: TextureReference(path: "unused.png"))
    let view = texture.view
    let n = 64
    var u = (0..<n).map { _ in Float.random(in: -2...2, using: &rng) }
    var v = (0..<n).map { _ in Float.random(in: -2...2, using: &rng) }
    var level = (0..<n).map { _ in Float.random(in: -1...8, using: &rng) }
    // Coordinates and levels no sampler should trip on.
    let hostile: [Float] = [
      .nan, .infinity, -.infinity, 1e30, -1e30, 0x1p23, -0x1p22, .greatestFiniteMagnitude,
    ]
    for (k, x) in hostile.enumerated() {
      u[k] = x
      v[n - 1 - k] = x
      level[8 + k] = x
    }
    // A group on whole levels (no blend) among groups that blend.
    level.replaceSubrange(0..<4, with: [0, 0, 1, 2])
    var out = [SIMD4<Float>](repeating: .zero, count: n)
    let scratch = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: n / 4 * TextureView.scratchGroups)
    defer { scratch.deallocate() }
    out.withUnsafeMutableBufferPointer { o in
      view.sample(u: u, v: v, level: level, count: n, scratch: scratch, into: o.baseAddress!)
    }
    for k in 0..<n {
      #expect(out[k] == view.sample(SIMD2(u[k], v[k]), level: level[k]), "sample \(k)")
      #expect(out[k].min() >= 0 && out[k].max() <= 1, "sample \(k): \(out[k])")
    }
    // The base level alone (magnified triangles): as level 0 would give.
    out.withUnsafeMutableBufferPointer { o in
      view.sample(u: u, v: v, level: nil, count: n, scratch: scratch, into: o.baseAddress!)
    }
    for k in 0..<n { #expect(out[k] == view.sample(SIMD2(u[k], v[k]), level: 0), "base sample \(k)") }
  }

  @Test("wrapping in integers reads what wrapping in floating point does; any input is safe")
  func integerWrapMatchesFloatingPoint() {
    var rng = SplitMix64(seed: 4407)
    let n = 256
    let scratch = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: n / 4 * TextureView.scratchGroups)
    defer { scratch.deallocate() }
    // Coordinates, scales and offsets that keep both wraps exact (powers of two, few bits), so
    // that they must agree bit for bit. (Elsewhere the floating-point wrap rounds: a coordinate
    // just below 0 plus 1, say.)
    let placements: [(scale: SIMD2<Float>, offset: SIMD2<Float>)] = [
      ([1, 1], [0, 0]), ([2, 0.5], [0.25, -0.375]), ([4, 0.25], [-1.5, 2.125]),
    ]
    func coordinate() -> Float { Float(Int.random(in: -3 << 16...3 << 16, using: &rng)) * 0x1p-16 }
    for (w, h) in [(1, 1), (8, 8), (16, 4), (2, 64), (256, 256)] {
      for placement in placements {
        var reference = TextureReference(path: "unused.png")
        reference.scale = SIMD3(placement.scale.x, placement.scale.y, 1)
        reference.offset = SIMD3(placement.offset.x, placement.offset.y, 0)
        let texture = MipmappedTexture(randomImage(&rng, w, h), reference: reference)
        let view = texture.view
        #expect(view.wrapsByMask)
        let u = (0..<n).map { _ in coordinate() }, v = (0..<n).map { _ in coordinate() }
        // Levels across the chain, lanes of a group on different ones.
        let level = (0..<n).map { _ in Float.random(in: -1...9, using: &rng) }
        var out = [SIMD4<Float>](repeating: .zero, count: n)
        out.withUnsafeMutableBufferPointer { o in
          view.sample(
            u: u, v: v, level: nil, count: n, inIntegers: true, scratch: scratch, into: o.baseAddress!)
        }
        for k in 0..<n {
          #expect(out[k] == view.sample(SIMD2(u[k], v[k]), level: 0), "\(w)×\(h) \(placement) sample \(k)")
        }
        out.withUnsafeMutableBufferPointer { o in
          view.sample(
            u: u, v: v, level: level, count: n, inIntegers: true, scratch: scratch, into: o.baseAddress!)
        }
        for k in 0..<n {
          #expect(
            out[k] == view.sample(SIMD2(u[k], v[k]), level: level[k]),
            "\(w)×\(h) \(placement) sample \(k) at level \(level[k])")
        }
      }
    }
    // Offsets beyond any period, or infinite (an MTL number past Float's range), wrap as 0.
    for offset: Float in [.infinity, -.infinity, .nan, 1e30, -0x1p-30] {
      var reference = TextureReference(path: "unused.png")
      reference.offset = SIMD3(offset, offset, 0)
      let wrap = MipmappedTexture(randomImage(&rng, 8, 8), reference: reference).view.levels[0].wrap
      #expect(wrap.whole.x >= -128 && wrap.whole.x < 2048 && wrap.whole.y >= -128 && wrap.whole.y < 2048)
    }
    // Clamped or not a power of two: never in integers; coordinates too large for whole units
    // are not either.
    var clamped = TextureReference(path: "unused.png")
    clamped.clamp = true
    #expect(!MipmappedTexture(randomImage(&rng, 8, 8), reference: clamped).view.wrapsByMask)
    #expect(
      !MipmappedTexture(randomImage(&rng, 8, 6), reference: TextureReference(path: "unused.png")).view
        .wrapsByMask)
    let wide = MipmappedTexture(randomImage(&rng, 4096, 1), reference: TextureReference(path: "unused.png"))
      .view
    #expect(wide.wrapsInIntegers(us: [0, 1.9, -1.9], vs: [0, 0, 0]))
    #expect(!wide.wrapsInIntegers(us: [0, 2.1, 0], vs: [0, 0, 0]))
    #expect(!wide.wrapsInIntegers(us: [0, .nan, 0], vs: [0, 0, 0]))
    // Hostile coordinates (the caller's check would have refused them) still read inside the
    // texture.
    let hostile: [Float] = [
      .nan, .infinity, -.infinity, 1e30, -1e30, 0x1p23, -0x1p22, .greatestFiniteMagnitude,
    ]
    for level in [nil, [0, 1.5, 3, 12, 30, 2.25, 7, 0.5] as [Float]] {
      var out = [SIMD4<Float>](repeating: .zero, count: hostile.count)
      out.withUnsafeMutableBufferPointer { o in
        wide.sample(
          u: hostile, v: hostile.reversed(), level: level, count: hostile.count, inIntegers: true,
          scratch: scratch, into: o.baseAddress!)
      }
      #expect(out.allSatisfy { $0.min() >= 0 && $0.max() <= 1 }, "levels \(level.map { "\($0)" } ?? "none")")
    }
  }

  @Test("a triangle found magnified everywhere has level 0 at every sample offset of its extent")
  func magnifiedBound() {
    var rng = SplitMix64(seed: 4406)
    var magnified = 0
    let trials = 300
    for trial in 0..<trials {
      // A triangle in a 64-sample tile, its vertices at depths w, and q = edge functions / w as
      // the rasterizer sets them up, from the bounding box's corner.
      let p = (0..<3).map { _ in
        SIMD2<Float>(Float.random(in: 0...63, using: &rng), Float.random(in: 0...63, using: &rng))
      }
      // Depths close together (most triangles), or far apart (strong perspective).
      let depths: ClosedRange<Float> = trial.isMultiple(of: 2) ? 1...1.3 : 0.3...6
      let w = SIMD3<Float>(
        Float.random(in: depths, using: &rng), Float.random(in: depths, using: &rng),
        Float.random(in: depths, using: &rng))
      let lo = pointwiseMin(pointwiseMin(p[0], p[1]), p[2]), hi = pointwiseMax(pointwiseMax(p[0], p[1]), p[2])
      let area = (p[1] - p[0]).x * (p[2] - p[0]).y - (p[1] - p[0]).y * (p[2] - p[0]).x
      guard abs(area) > 1 else { continue }
      // The edge opposite vertex k, positive inside: e(x) = sign · (b − a) × (x − a).
      func edge(_ k: Int) -> (at: Float, dx: Float, dy: Float) {
        let a = p[(k + 1) % 3], b = p[(k + 2) % 3], d = (b - a) * (area > 0 ? 1 : -1)
        return (d.x * (lo.y - a.y) - d.y * (lo.x - a.x), -d.y, d.x)
      }
      let e = (0..<3).map(edge)
      let q0 = SIMD3(e[0].at, e[1].at, e[2].at) / w
      let stepX = SIMD3(e[0].dx, e[1].dx, e[2].dx) / w, stepY = SIMD3(e[0].dy, e[1].dy, e[2].dy) / w
      let planes = PerspectivePlanes(
        q0: q0, stepX: stepX, stepY: stepY, stepSums: SIMD2(stepX.sum(), stepY.sum()),
        extent: (hi - lo).rounded(.down), smallestSum: abs(area) / w.max())
      let span = Float.random(in: 0.01...0.15, using: &rng)
      let us = SIMD3<Float>((0..<3).map { _ in Float.random(in: -span...span, using: &rng) })
      let vs = SIMD3<Float>((0..<3).map { _ in Float.random(in: -span...span, using: &rng) })
      let coordinates = TextureCoordinatePlanes(
        us: us, vs: vs, size: [256, 256], inIntegers: false, planes: planes)
      guard coordinates.magnified else { continue }
      magnified += 1
      // Every sample offset inside the triangle (the bound holds there, not in all the box).
      for j in 0...Int(planes.extent.y) {
        for i in stride(from: 0, through: Int(planes.extent.x), by: 4) {
          let x = SIMD4<Float>(0, 1, 2, 3) + Float(i), y = SIMD4<Float>(repeating: Float(j))
          let (u, v, level) = coordinates.at(x: x, y: y)
          #expect(coordinates.uv(x: x, y: y) == (u, v))
          for k in 0..<4
          where x[k] <= planes.extent.x && e.allSatisfy({ $0.at + $0.dx * x[k] + $0.dy * y[k] >= 0 }) {
            #expect(level[k] == 0, "trial \(trial) at (\(x[k]), \(j)): \(level[k])")
          }
        }
      }
    }
    // Neither answer is a foregone conclusion in this mix.
    #expect(magnified > trials / 10 && magnified < trials * 9 / 10, "\(magnified) of \(trials)")
  }

  @Test("a texture wider or taller than 16384 texels is refused, naming its file")
  func oversizedTexture() throws {
    let path = "textures/wide.png"
    let side = MipmappedTexture.maximumSide
    let wide = RGBA8Image(
      width: side + 1, height: 1, pixels: Array(repeating: SIMD4(9, 9, 9, 255), count: side + 1))
    var material = Material(name: "wide")
    material.diffuseTexture = TextureReference(path: path)
    var mesh = Mesh(
      positions: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], normals: [], texcoords: [[0, 0], [1, 0], [0, 1]],
      indices: [0, 1, 2])
    mesh.materials = [material]
    #expect {
      _ = try DrawCall(mesh: mesh, textures: [path: wide])
    } throws: { error in
      "\(error)".contains(path) && "\(error)".contains("16385×1 is larger than 16384 texels a side")
    }
    #expect(
      throws: RenderError.invalidTexture(path: path, reason: "no decoded image was given for this texture")
    ) {
      _ = try DrawCall(mesh: mesh)
    }
  }
}
