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
  /// The second texture-coordinate set (zero when the mesh has none).
  var uv1: SIMD2<Float> = .zero
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

  /// How a triangle's world position changes with its texture coordinates: ∂p/∂u (the
  /// tangent) and ∂p/∂v (the bitangent, v up), in metres per unit; zero when its texture
  /// coordinates are degenerate. Constant over the triangle, as the coordinates are linear
  /// in its plane: the frame a normal map's directions are measured in.
  static func textureFrame(
    _ v: (VertexAttributes, VertexAttributes, VertexAttributes)
  ) -> (tangent: SIMD3<Float>, bitangent: SIMD3<Float>) {
    func position(_ a: VertexAttributes) -> SIMD3<Float> {
      SIMD3(a.worldAndU.x, a.worldAndU.y, a.worldAndU.z)
    }
    let (e1, e2) = (position(v.1) - position(v.0), position(v.2) - position(v.0))
    let (du1, du2) = (v.1.worldAndU.w - v.0.worldAndU.w, v.2.worldAndU.w - v.0.worldAndU.w)
    let (dv1, dv2) = (v.1.normalAndV.w - v.0.normalAndV.w, v.2.normalAndV.w - v.0.normalAndV.w)
    let determinant = du1 * dv2 - du2 * dv1
    guard determinant != 0, determinant.isFinite else { return (.zero, .zero) }
    let tangent = (e1 * dv2 - e2 * dv1) / determinant, bitangent = (e2 * du1 - e1 * du2) / determinant
    guard tangent.x.isFinite, tangent.y.isFinite, tangent.z.isFinite, bitangent.x.isFinite,
      bitangent.y.isFinite, bitangent.z.isFinite
    else { return (.zero, .zero) }
    return (tangent, bitangent)
  }

  /// The unit normal `n` bent by a tangent-space normal `m` (x along u, y along v, z out):
  /// the tangent made perpendicular to `n`, the bitangent `n × tangent` turned to the side
  /// `bitangent` lies on (mirrored texture coordinates flip it), as glTF's MikkTSpace frame
  /// is for a triangle's own texture mapping; `n` itself when the frame is degenerate.
  @inline(__always)
  static func bent(
    _ n: SIMD3<Float>, by m: SIMD3<Float>, tangent: SIMD3<Float>, bitangent: SIMD3<Float>
  ) -> SIMD3<Float> {
    guard let t = (tangent - n * n.dot(tangent)).normalizedOrNil() else { return n }
    var b = n.cross(t)
    if b.dot(bitangent) < 0 { b = -b }
    return (t * m.x + b * m.y + n * m.z).normalizedOrNil() ?? n
  }
}
