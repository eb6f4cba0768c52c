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

@inlinable @inline(__always)
func lanesMin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  SIMD4(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z, b.w < a.w ? b.w : a.w)
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  SIMD4(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z, b.w > a.w ? b.w : a.w)
}

@inlinable @inline(__always)
func lanesMin(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
  SIMD4(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z, b.w < a.w ? b.w : a.w)
}

@inlinable @inline(__always)
func lanesMax(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
  SIMD4(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z, b.w > a.w ? b.w : a.w)
}
