/// A vertex after the vertex stage: its clip-space position and the attributes interpolated
/// across the triangle, packed in SIMD lanes so clipping and interpolation are vector ops.
struct ClipVertex {
  /// OpenGL clip coordinates `(x, y, z, w)`.
  var clip: SIMD4<Float>
  var attributes: VertexAttributes

  /// The vertex a fraction `t` of the way from `a` to `b`: clip-space attributes are linear
  /// along an edge, so a clipped edge's new vertex interpolates them linearly.
  @inline(__always)
  static func lerp(_ a: ClipVertex, _ b: ClipVertex, _ t: Float) -> ClipVertex {
    @inline(__always) func mix(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> { x + (y - x) * t }
    let (p, q) = (a.attributes, b.attributes)
    return ClipVertex(
      clip: mix(a.clip, b.clip),
      attributes: VertexAttributes(
        worldAndU: mix(p.worldAndU, q.worldAndU), normalAndV: mix(p.normalAndV, q.normalAndV),
        color: mix(p.color, q.color), uv1: p.uv1 + (q.uv1 - p.uv1) * t))
  }
}
