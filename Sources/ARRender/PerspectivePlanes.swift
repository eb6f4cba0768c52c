/// `q`, the three edge functions times 1/w, over a triangle: linear in screen space, so
/// `q = q0 + x·stepX + y·stepY` at sample offset `(x, y)` from an origin; normalised, `q`
/// weighs the vertices perspective-correctly.
struct PerspectivePlanes {
  /// `q` at the origin.
  var q0: SIMD3<Float> = .zero
  /// `q`'s change per sample step in x and y, and their sums.
  var stepX: SIMD3<Float> = .zero, stepY: SIMD3<Float> = .zero, stepSums: SIMD2<Float> = .zero
  /// The largest offsets of the samples drawn with these planes: every one lies in
  /// `[0, extent.x] × [0, extent.y]`.
  var extent: SIMD2<Float> = .zero
  /// `Σq`'s least value over the triangle, for bounds: `Σq` is linear, so it is the value at a
  /// vertex, where one edge function is twice the area and the others 0.
  var smallestSum: Float = 0

  /// The vertex weights (`q` normalised) at four samples' offsets `(x, y)`, and `1 / Σq`.
  @inline(__always)
  func weights(x: SIMD4<Float>, y: SIMD4<Float>) -> (
    SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, reciprocal: SIMD4<Float>
  ) {
    let a = q0.x + stepX.x * x + stepY.x * y, b = q0.y + stepX.y * x + stepY.y * y
    let c = q0.z + stepX.z * x + stepY.z * y
    let r = 1 / (a + b + c)
    return (a * r, b * r, c * r, r)
  }
}
