import ARMath

extension USDStageReader {
  /// The most vertices a stage's point instancers may make (instances times their prototypes'
  /// vertices), checked before any copy: a file of a few bytes could ask for billions.
  static let maximumInstancedVertices = 50_000_000

  /// The prototype roots of `PointInstancer` prim `instancer` (its `prototypes` targets), in
  /// order: `protoIndices` index them.
  func prototypes(of instancer: String) -> [String] {
    if case .paths(let targets)? = values[instancer + ".prototypes"] { return targets }
    return []
  }

  /// Each instance of `instancer` at ``timeCode``: its prototype's index and its transform in
  /// the instancer's space, scale, then orientation, then position (as
  /// `UsdGeomPointInstancer.ComputeInstanceTransformsAtTime` composes them, velocities left
  /// out); instances whose id is in `invisibleIds` are left out.
  func instances(of instancer: String) throws(USDError) -> [(prototype: Int, transform: Matrix4<Double>)] {
    func fail(_ field: String, _ reason: String) -> USDError {
      USDError(path: layer.path, place: instancer + "." + field, reason: reason)
    }
    guard case .ints(let protoIndices)? = value(instancer + ".protoIndices") else { return [] }
    guard case .vectors(let positions)? = value(instancer + ".positions"),
      positions.count == protoIndices.count
    else {
      if timeCode == nil, isSampledOnly(instancer + ".positions") {
        throw fail("positions", "only in time samples, none at the default time (give --time)")
      }
      throw fail("positions", "not one position for each of the \(protoIndices.count) protoIndices")
    }
    var orientations: [SIMD4<Double>]?
    if case .quaternions(let q)? = value(instancer + ".orientations") { orientations = q }
    var scales: [SIMD3<Double>]?
    if case .vectors(let s)? = value(instancer + ".scales") { scales = s.doubles }
    for (name, count) in [("orientations", orientations?.count), ("scales", scales?.count)] {
      if let count, count != protoIndices.count {
        throw fail(name, "\(count) values for \(protoIndices.count) instances")
      }
    }
    var hidden: Set<Int64> = []
    if case .ints(let invisible)? = value(instancer + ".invisibleIds") { hidden = Set(invisible) }
    var ids: [Int64]?
    if case .ints(let given)? = value(instancer + ".ids"), given.count == protoIndices.count { ids = given }
    let prototypeCount = prototypes(of: instancer).count
    var out: [(prototype: Int, transform: Matrix4<Double>)] = []
    out.reserveCapacity(protoIndices.count)
    for (i, p) in protoIndices.enumerated() {
      guard p >= 0, p < prototypeCount else {
        throw fail("protoIndices", "instance \(i) names prototype \(p) of \(prototypeCount)")
      }
      guard !hidden.contains(ids?[i] ?? Int64(i)) else { continue }
      let position = positions[i]
      guard position.x.isFinite, position.y.isFinite, position.z.isFinite else {
        throw fail("positions", "instance \(i)'s position is not finite")
      }
      var linear = Matrix3<Double>.identity
      if let q = orientations?[i] {
        guard q.isFinite else {
          throw fail("orientations", "instance \(i)'s orientation is not finite")
        }
        // The quaternion's matrix as it stands, not made unit: usd-core's instance transforms
        // (`GfMatrix4d.SetRotate`), which a quaternion a little off unit also scales (and a
        // zero one leaves the identity).
        linear = Quaternion<Double>(vector: q).matrix
      }
      var transform = Matrix4(linear: linear, translation: position)
      if let s = scales?[i] { transform = transform * .scale(s) }
      out.append((Int(p), transform))
    }
    return out
  }
}
