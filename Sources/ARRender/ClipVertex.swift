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
        color: mix(p.color, q.color)))
  }
}

/// What a vertex carries besides its clip position, kept apart from it in the frame's vertex
/// buffers: triangle setup reads positions only, shaders attributes only, and flat shading
/// needs none, so a frame of small triangles moves a quarter of the bytes through the vertex
/// stage.
struct VertexAttributes {
  /// World position in `xyz`, texture u in `w`.
  var worldAndU: SIMD4<Float>
  /// World normal (not normalised) in `xyz`, texture v in `w`.
  var normalAndV: SIMD4<Float>
  /// Vertex colour in `xyz` (white when the mesh has none).
  var color: SIMD4<Float>
}

/// Homogeneous clipping (Sutherland–Hodgman) of a triangle against the view frustum's planes
/// in clip space, before the perspective divide, so that geometry behind the camera or crossing
/// the near plane never reaches the divide.
enum FrustumClipper {
  /// The six planes as `dot(plane, clip) ≥ 0`: −w ≤ x ≤ w, −w ≤ y ≤ w, −w ≤ z ≤ w.
  static let planes: [SIMD4<Float>] = [
    [1, 0, 0, 1], [-1, 0, 0, 1], [0, 1, 0, 1], [0, -1, 0, 1], [0, 0, 1, 1], [0, 0, -1, 1],
  ]

  /// Bit `i` set when `v` lies outside plane `i`.
  @inline(__always)
  static func outcode(_ v: SIMD4<Float>) -> UInt8 {
    var code: UInt8 = 0
    if v.x < -v.w { code |= 1 }
    if v.x > v.w { code |= 2 }
    if v.y < -v.w { code |= 4 }
    if v.y > v.w { code |= 8 }
    if v.z < -v.w { code |= 16 }
    if v.z > v.w { code |= 32 }
    return code
  }

  /// The convex polygon left of triangle `a b c` inside the frustum (empty, or 3 to 9 vertices,
  /// in the triangle's winding order).
  static func clip(
    _ a: ClipVertex, _ b: ClipVertex, _ c: ClipVertex, outcodes: UInt8, into polygon: inout [ClipVertex]
  ) {
    polygon.removeAll(keepingCapacity: true)
    polygon.append(a)
    polygon.append(b)
    polygon.append(c)
    var scratch: [ClipVertex] = []
    scratch.reserveCapacity(9)
    for (i, plane) in planes.enumerated() where outcodes & (1 << i) != 0 {
      scratch.removeAll(keepingCapacity: true)
      for k in 0..<polygon.count {
        let p = polygon[k], q = polygon[(k + 1) % polygon.count]
        let dp = (plane * p.clip).sum(), dq = (plane * q.clip).sum()
        if dp >= 0 { scratch.append(p) }
        if (dp >= 0) != (dq >= 0) { scratch.append(ClipVertex.lerp(p, q, dp / (dp - dq))) }
      }
      swap(&polygon, &scratch)
      if polygon.count < 3 {
        polygon.removeAll()
        return
      }
    }
  }
}
