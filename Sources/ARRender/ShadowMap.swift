import ARMath
import RealModule

/// What a ``ShadowCatcher``'s plane sees of its light: a grid across the light (orthographic,
/// along the light's direction) over the casters' extent, holding at each texel the fraction
/// of the plane there that is in shadow, filtered.
///
/// Each texel's ray along the light meets the plane at a depth known exactly, so a texel is in
/// shadow when the nearest caster along that ray (the shadow map's depth) is in front of the
/// plane: no depth bias to tune against acne, as the receiver is one known plane. The binary
/// result is blurred with a Gaussian of the catcher's softness, so a receiver point reads its
/// shadow with one bilinear lookup.
struct ShadowMap {
  /// The map's frame: origin on the plane (the catcher's point), two axes across the light.
  let origin: SIMD3<Double>
  let uAxis: SIMD3<Double>, vAxis: SIMD3<Double>
  /// The texel grid: texel (i, j) is centred at u = u0 + (i + ½)·texel, v = v0 + (j + ½)·texel.
  let u0: Double, v0: Double, texel: Double
  let columns: Int, rows: Int
  /// The fraction in shadow per texel, row by row, 0…1.
  let shadowed: [Float]
  /// The plane's depth along the light at (u, v) is `du·u + dv·v`.
  let du: Double, dv: Double
  /// The light's direction, unit.
  let lightAxis: SIMD3<Double>

  /// The corners of the plane's part the map covers, world metres: no shadow falls outside them.
  var planeCorners: [SIMD3<Double>] {
    let (u1, v1) = (u0 + Double(columns) * texel, v0 + Double(rows) * texel)
    return [(u0, v0), (u1, v0), (u1, v1), (u0, v1)].map { u, v in
      origin + u * uAxis + v * vAxis + (du * u + dv * v) * lightAxis
    }
  }

  /// The map of `draws`' shadows on `catcher`'s plane; nil when nothing can cast onto it (no
  /// triangles, or the light comes from behind the plane).
  init?(casting draws: [DrawCall], onto catcher: ShadowCatcher, threads: Int) {
    let n = catcher.normal.normalized()
    let w = catcher.lightDirection.normalized()
    // Light grazing the plane (or from behind it) casts nothing it could show.
    let incidence = w.dot(n)
    guard incidence < -1e-6 else { return nil }
    let uAxis = w.anyPerpendicular().normalized()
    let vAxis = w.cross(uAxis)
    origin = catcher.point
    self.uAxis = uAxis
    self.vAxis = vAxis
    // Every vertex in the light's frame (Float is enough relative to the plane's point).
    var triangles: [SIMD3<Float>] = []  // (u, v, depth along the light) per corner
    var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
    for draw in draws {
      let m = draw.worldFromModelOffsets
      let corners = draw.mesh.positions.map { p -> SIMD3<Float> in
        let r = m.transformPoint(SIMD3<Double>(p)) - catcher.point
        return SIMD3(Float(r.dot(uAxis)), Float(r.dot(vAxis)), Float(r.dot(w)))
      }
      for index in draw.mesh.indices {
        let c = corners[Int(index)]
        triangles.append(c)
        low = pointwiseMin(low, SIMD2(Double(c.x), Double(c.y)))
        high = pointwiseMax(high, SIMD2(Double(c.x), Double(c.y)))
      }
    }
    guard !triangles.isEmpty, low.x.isFinite, high.x.isFinite else { return nil }
    // Square texels over the extent, with room around it for the blur to fade out.
    let extent = max(high.x - low.x, high.y - low.y, 1e-6)
    // No finer than a third of the softness: the blur hides finer detail, and the blur's cost
    // grows with its width in texels.
    let texel = max(extent / Double(catcher.resolution), catcher.softness / 3, 1e-9)
    let sigma = catcher.softness / texel
    let pad = Int((3 * sigma).rounded(.up)) + 2
    self.texel = texel
    u0 = low.x - Double(pad) * texel
    v0 = low.y - Double(pad) * texel
    columns = Int(((high.x - low.x) / texel).rounded(.up)) + 2 * pad + 1
    rows = Int(((high.y - low.y) / texel).rounded(.up)) + 2 * pad + 1
    var nearest = ShadowMap.rasterizeNearest(
      triangles, u0: u0, v0: v0, texel: texel, columns: columns, rows: rows, threads: threads)
    // In shadow where a caster is in front of the plane along the texel's ray. The plane's
    // depth at (u, v): the point u·û + v·v̂ + d·ŵ lies on it when d = −(u·û·n + v·v̂·n)/(ŵ·n).
    let (du, dv) = (-uAxis.dot(n) / incidence, -vAxis.dot(n) / incidence)
    (self.du, self.dv, lightAxis) = (du, dv, w)
    // Casters touching the plane (a model standing on it) meet it within rounding.
    let tolerance = Float(1e-6 * max(extent, 1) + 1e-5)
    for j in 0..<rows {
      let v = v0 + (Double(j) + 0.5) * texel
      for i in 0..<columns {
        let u = u0 + (Double(i) + 0.5) * texel
        let plane = Float(du * u + dv * v)
        nearest[j * columns + i] = nearest[j * columns + i] < plane - tolerance ? 1 : 0
      }
    }
    shadowed =
      sigma > 0.25
      ? ShadowMap.blurred(nearest, columns: columns, rows: rows, sigma: sigma, threads: threads) : nearest
  }

  /// The fraction in shadow at (u, v) in the map's frame (metres), bilinear between texel
  /// centres, 0 off the map.
  @inline(__always)
  func coverage(u: Double, v: Double) -> Float {
    let x = (u - u0) / texel - 0.5, y = (v - v0) / texel - 0.5
    guard x >= 0, y >= 0, x < Double(columns - 1), y < Double(rows - 1) else { return 0 }
    let (i, j) = (Int(x), Int(y))
    let (fx, fy) = (Float(x - Double(i)), Float(y - Double(j)))
    let k = j * columns + i
    let top = shadowed[k] + (shadowed[k + 1] - shadowed[k]) * fx
    let bottom = shadowed[k + columns] + (shadowed[k + columns + 1] - shadowed[k + columns]) * fx
    return top + (bottom - top) * fy
  }

  /// The nearest depth along the light at each texel centre covered by a triangle (+∞ where
  /// none is), triangles taken two-sided. Rows are split into bands, one a thread, each
  /// taking every triangle clipped to it, so the result does not depend on the thread count.
  static func rasterizeNearest(
    _ corners: [SIMD3<Float>], u0: Double, v0: Double, texel: Double, columns: Int, rows: Int,
    threads: Int
  ) -> [Float] {
    var depth = [Float](repeating: .infinity, count: columns * rows)
    let scale = 1 / texel
    // Corners in texel units, where texel (i, j)'s centre is (i + ½, j + ½).
    let grid = corners.map { c in
      SIMD3(Float((Double(c.x) - u0) * scale), Float((Double(c.y) - v0) * scale), c.z)
    }
    let bands = max(1, min(threads, rows))
    grid.withUnsafeBufferPointer { g in
      depth.withUnsafeMutableBufferPointer { d in
        let (source, out) = (UnsafeSendableBuffer(g), UnsafeSendableMutablePointer(d.baseAddress!))
        forEachBand(bands, threads: bands) { band in
          let (firstRow, endRow) = (rows * band / bands, rows * (band + 1) / bands)
          let g = source.buffer
          var t = 0
          while t + 2 < g.count {
            let (a, b, c) = (g[t], g[t + 1], g[t + 2])
            t += 3
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            guard area != 0 else { continue }  // edge-on to the light: its neighbours cover it
            let minY = max(firstRow, Int((min(a.y, b.y, c.y) - 0.5).rounded(.up)))
            let maxY = min(endRow - 1, Int((max(a.y, b.y, c.y) - 0.5).rounded(.down)))
            let minX = max(0, Int((min(a.x, b.x, c.x) - 0.5).rounded(.up)))
            let maxX = min(columns - 1, Int((max(a.x, b.x, c.x) - 0.5).rounded(.down)))
            guard minY <= maxY, minX <= maxX else { continue }
            let inverse = 1 / area
            // The barycentric weights are affine in the texel centre: stepped along each row.
            let (stepA, stepB) = ((b.y - c.y) * inverse, (c.y - a.y) * inverse)
            for y in minY...maxY {
              let py = Float(y) + 0.5, px = Float(minX) + 0.5
              var wa = ((b.x - px) * (c.y - py) - (b.y - py) * (c.x - px)) * inverse
              var wb = ((c.x - px) * (a.y - py) - (c.y - py) * (a.x - px)) * inverse
              var k = y * columns + minX
              for _ in minX...maxX {
                let wc = 1 - wa - wb
                // Inside (edges included) when all three weights are ≥ 0.
                if wa >= 0, wb >= 0, wc >= 0 {
                  let z = wa * a.z + wb * b.z + wc * c.z
                  if z < out.pointer[k] { out.pointer[k] = z }
                }
                wa += stepA
                wb += stepB
                k += 1
              }
            }
          }
        }
      }
    }
    return depth
  }

  /// `values` blurred by a Gaussian of `sigma` texels, rows then columns (zero beyond the grid),
  /// rows split over `threads`.
  static func blurred(_ values: [Float], columns: Int, rows: Int, sigma: Double, threads: Int) -> [Float] {
    let radius = Int((3 * sigma).rounded(.up))
    var weights = (-radius...radius).map { Float(Double.exp(-Double($0 * $0) / (2 * sigma * sigma))) }
    let total = weights.reduce(0, +)
    weights = weights.map { $0 / total }
    var across = [Float](repeating: 0, count: values.count)
    var out = [Float](repeating: 0, count: values.count)
    let bands = max(1, min(threads, rows))
    values.withUnsafeBufferPointer { v in
      weights.withUnsafeBufferPointer { wt in
        across.withUnsafeMutableBufferPointer { a in
          out.withUnsafeMutableBufferPointer { o in
            let (source, weight) = (UnsafeSendableBuffer(v), UnsafeSendableBuffer(wt))
            let (middle, result) = (
              UnsafeSendableMutablePointer(a.baseAddress!), UnsafeSendableMutablePointer(o.baseAddress!)
            )
            // Along the rows; a row without shadow (most, away from the casters) stays zero.
            forEachBand(bands, threads: bands) { band in
              for j in rows * band / bands..<rows * (band + 1) / bands {
                let row = j * columns
                guard (row..<row + columns).contains(where: { source.buffer[$0] != 0 }) else { continue }
                for i in 0..<columns {
                  var sum: Float = 0
                  for k in max(-radius, -i)...min(radius, columns - 1 - i) {
                    sum += source.buffer[row + i + k] * weight.buffer[k + radius]
                  }
                  middle.pointer[row + i] = sum
                }
              }
            }
            // Down the columns, each output row from the rows around it.
            forEachBand(bands, threads: bands) { band in
              for j in rows * band / bands..<rows * (band + 1) / bands {
                let to = j * columns
                for k in max(-radius, -j)...min(radius, rows - 1 - j) {
                  let w = weight.buffer[k + radius], from = (j + k) * columns
                  for i in 0..<columns { result.pointer[to + i] += middle.pointer[from + i] * w }
                }
              }
            }
          }
        }
      }
    }
    return out
  }
}
