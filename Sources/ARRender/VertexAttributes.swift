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

extension VertexAttributes {
  /// The unit face normal of the triangle `v` from its world positions by the counter-clockwise
  /// rule, in the file's winding (undoing setup's swap); zero for a degenerate triangle.
  @inline(__always)
  static func faceNormal(
    _ v: (VertexAttributes, VertexAttributes, VertexAttributes), swapped: Bool
  ) -> SIMD3<Float> {
    let p0 = SIMD3(v.0.worldAndU.x, v.0.worldAndU.y, v.0.worldAndU.z)
    let p1 = SIMD3(v.1.worldAndU.x, v.1.worldAndU.y, v.1.worldAndU.z)
    let p2 = SIMD3(v.2.worldAndU.x, v.2.worldAndU.y, v.2.worldAndU.z)
    let n = (p1 - p0).cross(p2 - p0)
    let l = n.length
    guard l > 0 else { return .zero }
    return swapped ? -n / l : n / l
  }
}
