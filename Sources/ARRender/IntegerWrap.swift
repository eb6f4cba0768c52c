import ARImage
import ARMesh

/// How a repeated texture whose sides are powers of two finds a level's texels in integers:
/// the position in 1/256ths of a texel from texel (0, 0)'s centre (rows down) is
/// `floor(uv · perUV + fraction) + whole`, and the repeat is the low bits of it (`& mask`).
///
/// Wrapping in floating point instead (the fractional part of the coordinate, then scaled and
/// rounded down) is a chain of three roundings and six conversions a coordinate pair, which
/// the sampler's first pass waited on.
struct IntegerWrap {
  /// Units (1/256 texel) per unit of uv; y negative, as OBJ's v is up and rows go down.
  let perUV: SIMD2<Float>
  /// The position of uv (0, 0) in units, split into a fraction in [0, 1) and whole units, so
  /// that with the usual offset of 0 the floating-point part adds nothing and is exact.
  let fraction: SIMD2<Float>, whole: SIMD2<Int32>
  /// A period of the repeat, less one: 256 · size − 1.
  let mask: SIMD2<Int32>
  /// The largest `|u·perUV|` for which the positions are whole units exactly.
  static let limit: Float = 0x1p21

  init(size: SIMD2<Float>, scale: SIMD2<Float>, offset: SIMD2<Float>) {
    let units = size * 256
    perUV = SIMD2(scale.x, -scale.y) * units
    // Texel centres at +0.5: the position of uv (0, 0) is half a texel (128 units) before the
    // first centre; the offset moves it, modulo a period (a whole number of units).
    // The offset's fractional part first, so that no offset (huge, or infinite from an MTL
    // number beyond Float's range) takes the products out of range; such offsets are whole
    // periods or meaningless, and count as 0.
    func fractional(_ x: Float) -> Float { x.isFinite ? x - x.rounded(.down) : 0 }
    let start = SIMD2(fractional(offset.x), fractional(-offset.y)) * units
    // In [0, units] (x − floor(x) rounds up to 1 for tiny negative x), so at most one period off.
    let reduced = start - (start / units).rounded(.down) * units - 128
    let floor = reduced.rounded(.down)
    fraction = reduced - floor
    whole = SIMD2(Int32(floor.x), Int32(floor.y))
    mask = SIMD2(Int32(units.x) - 1, Int32(units.y) - 1)
  }
}
