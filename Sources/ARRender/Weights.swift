import ARMath

/// Perspective-correct vertex weights at a sample centre, and how they change from one sample
/// to the next: the screen-space derivatives that size a texture's footprint.
///
/// The weights are `q / Σq` with `q` (the edge functions times 1/w) linear in screen space, so
/// their derivatives are exact: `∂(q/Σq)/∂x = (∂q/∂x − here · Σ∂q/∂x) / Σq`.
struct Weights {
  /// The three vertices' weights at the sample (they sum to 1).
  let here: SIMD3<Float>
  /// `1 / Σq` at the sample.
  let reciprocal: Float
  /// `q`'s change per sample step in x and in y.
  let stepX: SIMD3<Float>, stepY: SIMD3<Float>
  /// `Σ stepX` and `Σ stepY`.
  let stepSums: SIMD2<Float>

  /// The weights' change per sample step to the right.
  @inline(__always) var dx: SIMD3<Float> { (stepX - here * stepSums.x) * reciprocal }
  /// The weights' change per sample step down.
  @inline(__always) var dy: SIMD3<Float> { (stepY - here * stepSums.y) * reciprocal }
}

/// The mip level, lane by lane, of footprints whose longer side squared is `footprint` texels²:
/// ½·log2 of it, 0 where it is at most 1 (magnified) or NaN. The log2 is read off the bits: the
/// exponent plus the mantissa taken as linear (exact at powers of two, at most 0.086 low
/// between), enough to pick a level, and no library call.
@inline(__always)
func mipLevel(footprint: SIMD4<Float>) -> SIMD4<Float> {
  let log2 = LaneMath.float(unsafeBitCast(footprint, to: SIMD4<Int32>.self)) * 0x1p-23 - 127
  return LaneMath.masked(0.5 * log2, LaneMath.greaterMask(footprint, SIMD4(repeating: 1)))
}
