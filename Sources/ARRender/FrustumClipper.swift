/// Homogeneous clipping (Sutherland–Hodgman) of a triangle against the view frustum's planes
/// in clip space, before the perspective divide, so that geometry behind the camera or crossing
/// the near plane never reaches the divide.
///
/// Depth is reversed (``RenderCamera``): `z/w` is `−near/distance`, −1 on the near plane and
/// rising towards 0 far away, so the far plane is `z ≤ farLimit · w` with `farLimit = −near/far`.
enum FrustumClipper {
  /// The six planes as `dot(plane, clip) ≥ 0`: −w ≤ x ≤ w, −w ≤ y ≤ w, −w ≤ z ≤ farLimit·w.
  static func planes(farLimit: Float) -> [SIMD4<Float>] {
    [[1, 0, 0, 1], [-1, 0, 0, 1], [0, 1, 0, 1], [0, -1, 0, 1], [0, 0, 1, 1], [0, 0, -1, farLimit]]
  }

  /// Bit `i` set when `v` lies outside plane `i`.
  @inline(__always)
  static func outcode(_ v: SIMD4<Float>, farLimit: Float) -> UInt8 {
    var code: UInt8 = 0
    if v.x < -v.w { code |= 1 }
    if v.x > v.w { code |= 2 }
    if v.y < -v.w { code |= 4 }
    if v.y > v.w { code |= 8 }
    if v.z < -v.w { code |= 16 }
    if v.z > farLimit * v.w { code |= 32 }
    return code
  }

  /// The convex polygon left of triangle `a b c` inside the frustum (empty, or 3 to 9 vertices,
  /// in the triangle's winding order).
  static func clip(
    _ a: ClipVertex, _ b: ClipVertex, _ c: ClipVertex, outcodes: UInt8, farLimit: Float,
    into polygon: inout [ClipVertex]
  ) {
    let planes = planes(farLimit: farLimit)
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
