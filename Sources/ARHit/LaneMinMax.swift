#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

// Lane-wise minimum and maximum that always inline. The standard library's generic
// `pointwiseMin`/`pointwiseMax` were not specialised here and cost a call per use: a fifth of the
// BVH build and much of the box tests, in the profile.

@inlinable @inline(__always)
func lanesMin(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
  SIMD3(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z)
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
  SIMD3(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z)
}

@inlinable @inline(__always)
func lanesMin(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
  SIMD2(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y)
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
  SIMD2(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y)
}

// Four Floats: on x86-64 the SSE instructions themselves. From the per-lane form the optimiser
// rebuilt the box test's far side lane by lane, with a dozen shuffles a node visit. (Without
// NaNs the two forms differ only in which of two equal zeros they return.)
@inlinable @inline(__always)
func lanesMin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  #if arch(x86_64)
    _mm_min_ps(a, b)
  #else
    SIMD4(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z, b.w < a.w ? b.w : a.w)
  #endif
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  #if arch(x86_64)
    _mm_max_ps(a, b)
  #else
    SIMD4(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z, b.w > a.w ? b.w : a.w)
  #endif
}

/// A bit per lane (lane 0 the lowest) where `a ≤ b`.
@inlinable @inline(__always)
func lanesAtMost(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Int {
  #if arch(x86_64)
    Int(_mm_movemask_ps(_mm_cmple_ps(a, b)))
  #else
    var bits = 0
    for lane in 0..<4 where a[lane] <= b[lane] { bits |= 1 << lane }
    return bits
  #endif
}

@inlinable @inline(__always)
func lanesMin(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
  #if arch(x86_64)
    SIMD4(lowHalf: _mm_min_pd(a.lowHalf, b.lowHalf), highHalf: _mm_min_pd(a.highHalf, b.highHalf))
  #else
    SIMD4(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z, b.w < a.w ? b.w : a.w)
  #endif
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
  #if arch(x86_64)
    SIMD4(lowHalf: _mm_max_pd(a.lowHalf, b.lowHalf), highHalf: _mm_max_pd(a.highHalf, b.highHalf))
  #else
    SIMD4(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z, b.w > a.w ? b.w : a.w)
  #endif
}

/// A bit per lane (lane 0 the lowest) where `a < b`.
@inlinable @inline(__always)
func lanesBelow(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Int {
  #if arch(x86_64)
    Int(_mm_movemask_pd(_mm_cmplt_pd(a.lowHalf, b.lowHalf)))
      | Int(_mm_movemask_pd(_mm_cmplt_pd(a.highHalf, b.highHalf))) << 2
  #else
    var bits = 0
    for lane in 0..<4 where a[lane] < b[lane] { bits |= 1 << lane }
    return bits
  #endif
}
