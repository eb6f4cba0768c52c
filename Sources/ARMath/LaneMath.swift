#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

/// Lane-wise steps of the texture filter and the output encoding that Swift's SIMD types do
/// not reach directly: conversions, compares as masks, and the 16-bit multiply-add. On x86-64
/// each is one SSE2 instruction (the portable baseline); elsewhere the same arithmetic lane by
/// lane, so both give the same bits.
///
/// The generic SIMD conversions and mask operations compiled to a loop over the lanes with
/// range checks, per pixel, where these are one instruction each.
///
/// Shared by the hot loops of several modules, so `package`, not part of the public API.
@usableFromInline
package enum LaneMath {
  /// Each lane truncated towards zero. Lanes must lie within `Int32`'s range.
  @inlinable @inline(__always)
  package static func truncated(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_cvttps_epi32(v), to: SIMD4<Int32>.self)
    #else
      SIMD4(Int32(v.x), Int32(v.y), Int32(v.z), Int32(v.w))
    #endif
  }

  /// Each lane rounded to the nearest integer, ties to even. Lanes must lie within `Int32`'s
  /// range (NaN gives some value, not a trap).
  @inlinable @inline(__always)
  package static func rounded(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_cvtps_epi32(v), to: SIMD4<Int32>.self)  // the default rounding mode
    #else
      let r = v.rounded(.toNearestOrEven)
      @inline(__always) func lane(_ x: Float) -> Int32 { Int32(exactly: x) ?? .min }
      return SIMD4(lane(r.x), lane(r.y), lane(r.z), lane(r.w))
    #endif
  }

  /// Each lane rounded down. Lanes must lie within `Int32`'s range.
  @inlinable @inline(__always)
  package static func floored(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    let t = truncated(v)
    // Truncation went up for negative fractions: one step down there (the mask is −1).
    return t &+ greaterMask(float(t), v)
  }

  /// Each lane as a `Float` (exact below 2²⁴).
  @inlinable @inline(__always)
  package static func float(_ v: SIMD4<Int32>) -> SIMD4<Float> {
    #if arch(x86_64)
      _mm_cvtepi32_ps(unsafeBitCast(v, to: __m128i.self))
    #else
      SIMD4(Float(v.x), Float(v.y), Float(v.z), Float(v.w))
    #endif
  }

  /// −1 in each lane where `a > b`, else 0 (0 where either is NaN).
  @inlinable @inline(__always)
  package static func greaterMask(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_cmpgt_ps(a, b), to: SIMD4<Int32>.self)
    #else
      SIMD4(a.x > b.x ? -1 : 0, a.y > b.y ? -1 : 0, a.z > b.z ? -1 : 0, a.w > b.w ? -1 : 0)
    #endif
  }

  /// −1 in each lane where `a == b`, else 0 (0 where either is NaN).
  @inlinable @inline(__always)
  package static func equalMask(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_cmpeq_ps(a, b), to: SIMD4<Int32>.self)
    #else
      SIMD4(a.x == b.x ? -1 : 0, a.y == b.y ? -1 : 0, a.z == b.z ? -1 : 0, a.w == b.w ? -1 : 0)
    #endif
  }

  /// −1 in each lane where `a > b`, else 0.
  @inlinable @inline(__always)
  package static func greaterMask(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(
        _mm_cmpgt_epi32(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
        to: SIMD4<Int32>.self)
    #else
      SIMD4(a.x > b.x ? -1 : 0, a.y > b.y ? -1 : 0, a.z > b.z ? -1 : 0, a.w > b.w ? -1 : 0)
    #endif
  }

  /// −1 in each lane where `a == b`, else 0.
  @inlinable @inline(__always)
  package static func equalMask(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(
        _mm_cmpeq_epi32(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
        to: SIMD4<Int32>.self)
    #else
      SIMD4(a.x == b.x ? -1 : 0, a.y == b.y ? -1 : 0, a.z == b.z ? -1 : 0, a.w == b.w ? -1 : 0)
    #endif
  }

  /// The lanes' sign bits as a number, lane k's in bit k (a compare's −1 gives 1).
  @inlinable @inline(__always)
  package static func signBits(_ mask: SIMD4<Int32>) -> Int32 {
    #if arch(x86_64)
      _mm_movemask_ps(unsafeBitCast(mask, to: __m128.self))
    #else
      (mask.x < 0 ? 1 : 0) | (mask.y < 0 ? 2 : 0) | (mask.z < 0 ? 4 : 0) | (mask.w < 0 ? 8 : 0)
    #endif
  }

  /// `a` in the lanes where `mask` is −1, `b` where it is 0 (any four 32-bit lanes).
  @inlinable @inline(__always)
  package static func selected<T: SIMDScalar>(_ a: SIMD4<T>, _ b: SIMD4<T>, where mask: SIMD4<Int32>)
    -> SIMD4<
      T
    >
  {
    let a = unsafeBitCast(a, to: SIMD4<Int32>.self), b = unsafeBitCast(b, to: SIMD4<Int32>.self)
    return unsafeBitCast((a & mask) | (b & ~mask), to: SIMD4<T>.self)
  }

  /// Whether any lane of `mask` is non-zero in its sign bit (a compare's −1).
  @inlinable @inline(__always)
  package static func anySet(_ mask: SIMD4<Int32>) -> Bool { signBits(mask) != 0 }

  /// `v` where `|v| < limit`, else 0 (also for NaN and infinities).
  @inlinable @inline(__always)
  package static func zeroUnlessBelow(_ v: SIMD4<Float>, magnitude limit: Float) -> SIMD4<Float> {
    let bits = unsafeBitCast(v, to: SIMD4<Int32>.self)
    let magnitude = unsafeBitCast(bits & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    return unsafeBitCast(bits & greaterMask(SIMD4(repeating: limit), magnitude), to: SIMD4<Float>.self)
  }

  /// `max(v, 0)` lane-wise, with NaN taken as 0.
  @inlinable @inline(__always)
  package static func atLeastZero(_ v: SIMD4<Float>) -> SIMD4<Float> {
    LaneMath.max(v, .zero)  // the second operand when either is NaN
  }

  /// Each lane's square root, correctly rounded (the same bits as `Float.squareRoot()`; NaN for
  /// negative lanes). Swift's `SIMD4.squareRoot()` compiled to four scalar roots, each behind a
  /// branch to the C library for negative inputs; on x86-64 this is one instruction.
  @inlinable @inline(__always)
  package static func squareRoot(_ v: SIMD4<Float>) -> SIMD4<Float> {
    #if arch(x86_64)
      _mm_sqrt_ps(v)
    #else
      v.squareRoot()
    #endif
  }

  /// `min(v, limit)` lane-wise (lanes are not NaN).
  @inlinable @inline(__always)
  package static func atMost(_ v: SIMD4<Float>, _ limit: Float) -> SIMD4<Float> {
    LaneMath.min(v, SIMD4(repeating: limit))
  }

  /// `a > b ? a : b` lane-wise: `b` where either is NaN.
  @inlinable @inline(__always)
  package static func larger(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    LaneMath.max(a, b)
  }

  /// The least of three lanes (not NaN), without a branch. Swift's `min()` of a vector follows
  /// IEEE `minNum` (a NaN lane gives way to the others) with compares and branches, which in
  /// triangle set-up mispredicted about half the time.
  @inlinable @inline(__always)
  package static func least(_ v: SIMD3<Float>) -> Float {
    let a = v.y < v.x ? v.y : v.x  // MINSS
    return v.z < a ? v.z : a
  }

  /// The greatest of three lanes (not NaN), without a branch (see ``least(_:)``).
  @inlinable @inline(__always)
  package static func greatest(_ v: SIMD3<Float>) -> Float {
    let a = v.y > v.x ? v.y : v.x  // MAXSS
    return v.z > a ? v.z : a
  }

  /// The greatest of four lanes (not NaN), without a branch (see ``least(_:)``).
  @inlinable @inline(__always)
  package static func greatest(_ v: SIMD4<Float>) -> Float {
    let pairs = larger(v, SIMD4(v.z, v.w, v.x, v.y))
    return pairs.y > pairs.x ? pairs.y : pairs.x
  }

  /// `v` in the lanes where `mask` is −1, 0 where it is 0.
  @inlinable @inline(__always)
  package static func masked(_ v: SIMD4<Float>, _ mask: SIMD4<Int32>) -> SIMD4<Float> {
    unsafeBitCast(unsafeBitCast(v, to: SIMD4<Int32>.self) & mask, to: SIMD4<Float>.self)
  }

  /// Whether `a < b` in all four lanes (false where either is NaN).
  @inlinable @inline(__always)
  package static func allLess(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
    #if arch(x86_64)
      _mm_movemask_ps(_mm_cmplt_ps(a, b)) == 15
    #else
      a.x < b.x && a.y < b.y && a.z < b.z && a.w < b.w
    #endif
  }

  /// Each lane clamped to [0, 1], NaN taken as 0.
  @inlinable @inline(__always)
  package static func unitClamped(_ v: SIMD4<Float>) -> SIMD4<Float> { atMost(atLeastZero(v), 1) }

  /// Each lane of `v` (within [0, 2²²]) rounded to the nearest integer, ties to even, without
  /// a conversion instruction: adding 2²³ leaves the rounded integer in the low mantissa bits.
  @inlinable @inline(__always)
  package static func roundedSmall(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    let magic = SIMD4<Float>(repeating: 0x1p23)
    return unsafeBitCast(v + magic, to: SIMD4<Int32>.self) &- unsafeBitCast(magic, to: SIMD4<Int32>.self)
  }

  /// Each lane of `v` (within ±2²²) rounded down, without a conversion instruction: adding
  /// 1.5·2²³ leaves the nearest integer in the low mantissa bits, and subtracting it again
  /// gives that integer as a float, to step down where it rounded up. Lanes out of range (or
  /// NaN) give some value, not a trap.
  @inlinable @inline(__always)
  package static func flooredSmall(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    let magic = SIMD4<Float>(repeating: 0x1.8p23)
    let shifted = v + magic
    let nearest = unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- unsafeBitCast(magic, to: SIMD4<Int32>.self)
    return nearest &+ greaterMask(shifted - magic, v)
  }

  /// Each lane shifted right by `count` bits (a constant), arithmetically (rounding down).
  /// Swift's `&>>` takes a count per lane, which SSE2 cannot shift by: it went lane by lane
  /// through scalar registers.
  @inlinable @inline(__always)
  package static func shiftedRight(_ v: SIMD4<Int32>, _ count: Int32) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_srai_epi32(unsafeBitCast(v, to: __m128i.self), count), to: SIMD4<Int32>.self)
    #else
      v &>> SIMD4(repeating: count)
    #endif
  }

  /// Each lane shifted left by `count` bits (a constant), as one SSE2 shift.
  @inlinable @inline(__always)
  package static func shiftedLeft(_ v: SIMD4<Int32>, _ count: Int32) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(_mm_slli_epi32(unsafeBitCast(v, to: __m128i.self), count), to: SIMD4<Int32>.self)
    #else
      v &<< SIMD4(repeating: count)
    #endif
  }

  /// 2 raised to each lane (clamped to [−126, 127]; NaN taken as −126), within 10⁻⁴ of it
  /// relative: the exponent's integer part goes into the float's exponent bits, its fraction
  /// through a cubic (fitted to 2^f on [0, 1] for the least greatest relative error).
  @inlinable @inline(__always)
  package static func exp2(_ v: SIMD4<Float>) -> SIMD4<Float> {
    let t = LaneMath.min(LaneMath.max(v, SIMD4(repeating: -126)), SIMD4(repeating: 127))
    let i = flooredSmall(t)
    let f = t - float(i)
    var p = SIMD4<Float>(repeating: 0.07802446) * f + 0.22606731
    p = p * f + 0.69583344
    p = p * f + 0.99992523
    return unsafeBitCast(unsafeBitCast(p, to: SIMD4<Int32>.self) &+ shiftedLeft(i, 23), to: SIMD4<Float>.self)
  }

  /// `low | high << 16` lane by lane, each saturated to 0...32767 (lanes are at least 0): two
  /// 16-bit halves in one lane.
  @inlinable @inline(__always)
  package static func packedPairs(low: SIMD4<Int32>, high: SIMD4<Int32>) -> SIMD4<Int32> {
    #if arch(x86_64)
      let l = unsafeBitCast(low, to: __m128i.self), h = unsafeBitCast(high, to: __m128i.self)
      return unsafeBitCast(
        _mm_unpacklo_epi16(_mm_packs_epi32(l, l), _mm_packs_epi32(h, h)), to: SIMD4<Int32>.self)
    #else
      let limit = SIMD4<Int32>(repeating: 32767)
      return low.replacing(with: limit, where: low .> limit)
        | high.replacing(with: limit, where: high .> limit) &<< 16
    #endif
  }

  /// `a &* b` lane-wise for lanes in `0..<2¹⁵`: one `pmaddwd` (each lane's high half is zero),
  /// where a 32-bit multiply takes SSE2 two `pmuludq` and four shuffles.
  @inlinable @inline(__always)
  package static func smallProduct(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> {
    multiplyAddPairs(unsafeBitCast(a, to: SIMD8<Int16>.self), unsafeBitCast(b, to: SIMD8<Int16>.self))
  }

  /// Whether all four lanes are equal.
  @inlinable @inline(__always)
  package static func allEqual(_ v: SIMD4<Int32>) -> Bool {
    #if arch(x86_64)
      let first = unsafeBitCast(SIMD4<Int32>(repeating: v.x), to: __m128i.self)
      return _mm_movemask_epi8(_mm_cmpeq_epi32(unsafeBitCast(v, to: __m128i.self), first)) == 0xFFFF
    #else
      v.x == v.y && v.x == v.z && v.x == v.w
    #endif
  }

  /// Whether any lane is above zero.
  @inlinable @inline(__always)
  package static func anyPositive(_ v: SIMD4<Float>) -> Bool {
    #if arch(x86_64)
      _mm_movemask_ps(_mm_cmpgt_ps(v, .zero)) != 0
    #else
      v.x > 0 || v.y > 0 || v.z > 0 || v.w > 0
    #endif
  }

  /// The low halves of `a` and `b` interleaved: `(a[0], b[0], a[1], b[1], …, a[3], b[3])`.
  @inlinable @inline(__always)
  package static func interleavedLow(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    #if arch(x86_64)
      unsafeBitCast(
        _mm_unpacklo_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
        to: SIMD8<Int16>.self)
    #else
      SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    #endif
  }

  /// The high halves of `a` and `b` interleaved: `(a[4], b[4], a[5], b[5], …, a[7], b[7])`.
  @inlinable @inline(__always)
  package static func interleavedHigh(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    #if arch(x86_64)
      unsafeBitCast(
        _mm_unpackhi_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
        to: SIMD8<Int16>.self)
    #else
      SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    #endif
  }

  /// The sums of adjacent products, `a[2i]·b[2i] + a[2i+1]·b[2i+1]`, exact in 32 bits.
  @inlinable @inline(__always)
  package static func multiplyAddPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    #if arch(x86_64)
      unsafeBitCast(
        _mm_madd_epi16(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
        to: SIMD4<Int32>.self)
    #else
      let p = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
      return p.evenHalf &+ p.oddHalf
    #endif
  }
}
