import ARMath

/// A triangle as the SAH build (``BVHBuilder``) moves it: its box rounded outwards to `Float`,
/// and its index in the mesh kept as the bits of `lower.w`.
///
/// Rounding outwards is monotone, so the union of such boxes is the outward rounding of the
/// union: node boxes come straight from these and still contain their triangles. At 32 bytes a
/// triangle, the build partitions them in place and reads memory in order, where an index array
/// made every pass gather boxes and centres from three other arrays.
struct BuildTriangle {
  /// Lower corner; `w` holds the index bits, never used in arithmetic.
  var lower: SIMD4<Float>
  /// Upper corner; `w` is zero.
  var upper: SIMD4<Float>

  init(index: Int32, lower: SIMD3<Double>, upper: SIMD3<Double>) {
    self.lower = SIMD4(
      lower.x.floatBelow, lower.y.floatBelow, lower.z.floatBelow, Float(bitPattern: UInt32(bitPattern: index))
    )
    self.upper = SIMD4(upper.x.floatAbove, upper.y.floatAbove, upper.z.floatAbove, 0)
  }

  /// The triangle's index in the mesh.
  var index: Int32 { Int32(bitPattern: lower.w.bitPattern) }

  /// Twice the box's centre, `w` zero: the index bits are masked off before the sum (a
  /// subnormal there could cost a microcode assist on every add).
  @inline(__always)
  var doubledCentre: SIMD4<Float> {
    let xyz = unsafeBitCast(lower, to: SIMD4<UInt32>.self) & SIMD4(.max, .max, .max, 0)
    return unsafeBitCast(xyz, to: SIMD4<Float>.self) + upper
  }
}
