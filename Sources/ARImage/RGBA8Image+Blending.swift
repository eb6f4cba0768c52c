extension RGBA8Image {
  /// Lays `color` (linear RGB) at `coverage` (0…1) over pixel `index`, in linear light, with
  /// straight alpha: over an opaque pixel the colours mix and alpha stays 1; over a transparent
  /// one (an overlay rendered over nothing) the pixel takes the colour with that alpha.
  /// Shared by the modules that draw labels, maps and cursors over images.
  @inline(__always)
  package mutating func blend(_ color: SIMD3<Float>, coverage: Float, at index: Int) {
    guard coverage > 0 else { return }
    let a = min(coverage, 1)
    let p = pixels[index]
    let table = SRGB.decodeTable
    let below = Float(p.w) / 255
    let alpha = a + below * (1 - a)
    let under = SIMD3(table[Int(p.x)], table[Int(p.y)], table[Int(p.z)])
    let rgb = alpha > 0 ? (color * a + under * below * (1 - a)) / alpha : .zero
    pixels[index] = SIMD4(
      SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z), UInt8((alpha * 255).rounded()))
  }
}
