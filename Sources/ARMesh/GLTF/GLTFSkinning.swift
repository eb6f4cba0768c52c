import ARMath

/// Linear blend skinning as the glTF specification defines it: each vertex moved by the
/// weighted sum of its joints' matrices (joint transform × inverse bind matrix), its normal by
/// the inverse transpose of that sum.
enum GLTFSkinning {
  static func apply(
    _ jointMatrices: [Matrix4<Double>], joints: [SIMD4<Int>], weights: [SIMD4<Double>],
    to attributes: inout GLTFPrimitiveAttributes, at here: String, path: String
  ) throws(GLTFError) {
    // The normals taken out while the positions change in place, as doubles.
    var normals = attributes.normals
    attributes.normals = nil
    defer { attributes.normals = normals }
    try attributes.positions.modifyDoubles { (positions) throws(GLTFError) in
      try skin(&positions, &normals, jointMatrices, joints: joints, weights: weights, at: here, path: path)
    }
  }

  /// Moves each of `positions` and its normal in `normals` (if any) by its blended joints.
  private static func skin(
    _ positions: inout [SIMD3<Double>], _ normals: inout [SIMD3<Double>]?, _ jointMatrices: [Matrix4<Double>],
    joints: [SIMD4<Int>], weights: [SIMD4<Double>], at here: String, path: String
  ) throws(GLTFError) {
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
      if let n = normals?[v] {
        let linear = blended.linear
        normals![v] = (linear.inverse?.transposed ?? linear) * n
      }
    }
  }
}
