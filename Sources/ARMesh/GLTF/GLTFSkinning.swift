import ARMath

/// Linear blend skinning as the glTF specification defines it: each vertex moved by the
/// weighted sum of its joints' matrices (joint transform × inverse bind matrix), its normal by
/// the inverse transpose of that sum.
enum GLTFSkinning {
  static func apply(
    _ jointMatrices: [Matrix4<Double>], joints: [SIMD4<Int>], weights: [SIMD4<Double>],
    to attributes: inout GLTFPrimitiveAttributes, at here: String, path: String
  ) throws(GLTFError) {
    // The positions changed in place, as doubles (the attributes let go of them meanwhile).
    var positions = attributes.positions.doubles
    attributes.positions = []
    defer { attributes.positions = Vector3Array(positions) }
    for v in positions.indices {
      var blended = Matrix4<Double>(diagonal: .zero)
      var total = 0.0
      for k in 0..<4 where weights[v][k] != 0 {
        let j = joints[v][k]
        guard jointMatrices.indices.contains(j) else {
          throw GLTFError(
            path: path, pointer: here + "/attributes/JOINTS_0",
            reason: "vertex \(v) names joint \(j), the skin has \(jointMatrices.count)")
        }
        let m = jointMatrices[j], w = weights[v][k]
        blended = Matrix4(
          blended.columns.0 + m.columns.0 * w, blended.columns.1 + m.columns.1 * w,
          blended.columns.2 + m.columns.2 * w, blended.columns.3 + m.columns.3 * w)
        total += weights[v][k]
      }
      // Weights should sum to 1; a vertex with none stays where the bind pose has it.
      guard total > 0 else { continue }
      blended = blended * (1 / total)
      positions[v] = blended.transformPoint(positions[v])
      if let n = attributes.normals?[v] {
        let linear = blended.linear
        attributes.normals![v] = (linear.inverse?.transposed ?? linear) * n
      }
    }
  }
}
