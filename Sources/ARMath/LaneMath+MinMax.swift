#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

// Lane-wise minimum, maximum and comparison masks that always inline, for the hot loops of
// hit-testing and rasterizing. The standard library's generic `pointwiseMin`/`pointwiseMax`
// were not specialised across modules and cost a call per use: a fifth of the BVH build and
// much of the box tests, in the profile.
//
// On x86-64 the four-lane forms are the SSE instructions themselves, whose rule for NaN every
// form follows: `min` and `max` return their second operand when either is NaN.
extension LaneMath {
  @inlinable @inline(__always)
  package static func min(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z)
  }

  @inlinable @inline(__always)
  package static func max(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z)
  }

  @inlinable @inline(__always)
  package static func min(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y)
  }

  @inlinable @inline(__always)
  package static func max(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
    SIMD2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y)
  }

  // Four lanes: on x86-64 the SSE instructions themselves. From the per-lane form the optimiser
  // rebuilt the box test's far side lane by lane, with a dozen shuffles a node visit.
  @inlinable @inline(__always)
  package static func min(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    #if arch(x86_64)
      _mm_min_ps(a, b)
    #else
      SIMD4(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z, a.w < b.w ? a.w : b.w)
    #endif
  }

  @inlinable @inline(__always)
  package static func max(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    #if arch(x86_64)
      _mm_max_ps(a, b)
    #else
      SIMD4(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z, a.w > b.w ? a.w : b.w)
    #endif
  }

  /// A bit per lane (lane 0 the lowest) where `a ≤ b`.
  @inlinable @inline(__always)
  package static func atMost(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Int {
    #if arch(x86_64)
      Int(_mm_movemask_ps(_mm_cmple_ps(a, b)))
    #else
      var bits = 0
      for lane in 0..<4 where a[lane] <= b[lane] { bits |= 1 << lane }
      return bits
    #endif
  }

  @inlinable @inline(__always)
  package static func min(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    #if arch(x86_64)
      SIMD4(lowHalf: _mm_min_pd(a.lowHalf, b.lowHalf), highHalf: _mm_min_pd(a.highHalf, b.highHalf))
    #else
      SIMD4(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z, a.w < b.w ? a.w : b.w)
    #endif
  }

  @inlinable @inline(__always)
  package static func max(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    #if arch(x86_64)
      SIMD4(lowHalf: _mm_max_pd(a.lowHalf, b.lowHalf), highHalf: _mm_max_pd(a.highHalf, b.highHalf))
    #else
      SIMD4(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z, a.w > b.w ? a.w : b.w)
    #endif
  }

  /// A bit per lane (lane 0 the lowest) where `a < b`.
  @inlinable @inline(__always)
  package static func below(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Int {
    #if arch(x86_64)
      Int(_mm_movemask_pd(_mm_cmplt_pd(a.lowHalf, b.lowHalf)))
        | Int(_mm_movemask_pd(_mm_cmplt_pd(a.highHalf, b.highHalf))) << 2
    #else
      var bits = 0
      for lane in 0..<4 where a[lane] < b[lane] { bits |= 1 << lane }
      return bits
    #endif
  }
}
