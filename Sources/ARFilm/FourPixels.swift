import ARMath

/// Four pixels of a row as four vectors, one a channel (red, green, blue, alpha), for
/// pointwise stages whose arithmetic per pixel is long: on channel vectors each step serves
/// four pixels, where on a pixel's own vector it serves one and horizontal sums cost shuffles.
struct FourPixels {
  var red: SIMD4<Float>, green: SIMD4<Float>, blue: SIMD4<Float>, alpha: SIMD4<Float>

  /// Pixels `x … x + 3` of `row`.
  @inline(__always)
  init(_ row: UnsafeMutableBufferPointer<SIMD4<Float>>, _ x: Int) {
    let (a, b, c, d) = (row[x], row[x + 1], row[x + 2], row[x + 3])
    red = SIMD4(a.x, b.x, c.x, d.x)
    green = SIMD4(a.y, b.y, c.y, d.y)
    blue = SIMD4(a.z, b.z, c.z, d.z)
    alpha = SIMD4(a.w, b.w, c.w, d.w)
  }

  /// Writes the four pixels back to `x … x + 3`.
  @inline(__always)
  func store(_ row: UnsafeMutableBufferPointer<SIMD4<Float>>, _ x: Int) {
    row[x] = SIMD4(red.x, green.x, blue.x, alpha.x)
    row[x + 1] = SIMD4(red.y, green.y, blue.y, alpha.y)
    row[x + 2] = SIMD4(red.z, green.z, blue.z, alpha.z)
    row[x + 3] = SIMD4(red.w, green.w, blue.w, alpha.w)
  }

  /// Their Rec. 709 luminances.
  @inline(__always)
  var luminance: SIMD4<Float> { red * 0.2126 + green * 0.7152 + blue * 0.0722 }

  /// Runs `body` over a row four pixels at a time; the last one to three pixels go through it
  /// too, padded with copies of the row's last pixel (their results dropped).
  @inline(__always)
  static func forEach(
    _ row: UnsafeMutableBufferPointer<SIMD4<Float>>, _ body: (inout FourPixels, Int) -> Void
  ) {
    var x = 0
    while x + 4 <= row.count {
      var four = FourPixels(row, x)
      body(&four, x)
      four.store(row, x)
      x += 4
    }
    guard x < row.count else { return }
    withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 4) { tail in
      for j in 0..<4 { tail[j] = row[min(x + j, row.count - 1)] }
      var four = FourPixels(tail, 0)
      body(&four, x)
      four.store(tail, 0)
      for j in 0..<(row.count - x) { row[x + j] = tail[j] }
    }
  }
}

extension ChannelTable {
  /// The table at four values, the index arithmetic done on all four at once.
  @inline(__always)
  static func look(four v: SIMD4<Float>, in e: UnsafePointer<Float>) -> SIMD4<Float> {
    let s = LaneMath.unitClamped(v).squareRoot() * Float(size - 1)
    let i = LaneMath.truncated(Lanes.min(s, SIMD4(repeating: Float(size - 2))))
    let f = s - LaneMath.float(i)
    let (a, b, c, d) = (Int(i.x), Int(i.y), Int(i.z), Int(i.w))
    let low = SIMD4(e[a], e[b], e[c], e[d]), high = SIMD4(e[a + 1], e[b + 1], e[c + 1], e[d + 1])
    return low + (high - low) * f
  }
}

extension Encoding {
  /// ``decodeFast(_:)`` of four values.
  @inline(__always)
  static func decodeFast(_ v: SIMD4<Float>, in t: UnsafePointer<Float>) -> SIMD4<Float> {
    let s = LaneMath.unitClamped(v) * 4096
    let i = LaneMath.truncated(Lanes.min(s, SIMD4(repeating: 4095)))
    let f = s - LaneMath.float(i)
    let (a, b, c, d) = (Int(i.x), Int(i.y), Int(i.z), Int(i.w))
    let low = SIMD4(t[a], t[b], t[c], t[d]), high = SIMD4(t[a + 1], t[b + 1], t[c + 1], t[d + 1])
    return low + (high - low) * f
  }
}
