import ARMath

/// A `Skeleton` prim as UsdSkel defines it: joints named by paths (`Hip/Knee` under `Hip`),
/// each joint's bind transform in skeleton space and rest transform relative to its parent.
/// Matrices are for column vectors (USD's transposed).
struct USDSkeleton {
  var path: String
  var joints: [String]
  /// Each joint's parent's index, −1 for a root; a parent always comes first.
  var parents: [Int]
  /// Each joint's bind transform; empty for a skeleton read only to pose it.
  var bind: [Matrix4<Double>]
  /// Nil when unauthored or not one a joint.
  var rest: [Matrix4<Double>]?

  /// Joint-to-skeleton transforms from joint-to-parent ones, down the hierarchy.
  func skeletonSpace(_ local: [Matrix4<Double>]) -> [Matrix4<Double>] {
    var out: [Matrix4<Double>] = []
    out.reserveCapacity(local.count)
    for (j, transform) in local.enumerated() {
      out.append(parents[j] < 0 ? transform : out[parents[j]] * transform)
    }
    return out
  }
}

/// A skinned mesh's points in its skeleton's space, each point's normal transform, and the
/// skeleton whose transform places them.
struct USDSkin {
  var points: [SIMD3<Double>]
  var normalTransforms: [Matrix3<Double>]
  var skeleton: String
}

extension USDStageReader {
  /// A matrix as USD writes it (row-major, for row vectors) turned into one for column vectors.
  static func columnMatrix(_ m: [Double]) -> Matrix4<Double> {
    Matrix4(
      SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]), SIMD4(m[8], m[9], m[10], m[11]),
      SIMD4(m[12], m[13], m[14], m[15]))
  }

  /// The nearest `SkelRoot` at or above `path`, nil outside one (where UsdSkel skins nothing).
  func skelRoot(of path: String) -> String? {
    ([path] + Self.ancestors(of: path)).first { primTypes[$0] == "SkelRoot" }
  }

  /// Whether `SkelBindingAPI` is applied to the prim at `path`: usd-core 26 reads a prim's
  /// binding properties (`skel:skeleton`, `skel:animationSource`, the joint primvars, blend
  /// shapes) only then. Reality Converter and older usdzconvert files author them without it.
  func hasSkelBindingAPI(_ path: String) -> Bool {
    layer.apiSchemas[path]?.contains("SkelBindingAPI") == true
  }

  /// The first target of binding relationship `name` on the prim at `path` or its nearest
  /// ancestor that has one and `SkelBindingAPI` applied (UsdSkel's bindings are inherited down
  /// namespace; a prim without the API binds nothing).
  func inheritedTarget(_ name: String, from path: String) -> String? {
    var prefix = path
    while !prefix.isEmpty {
      if case .paths(let targets)? = values[prefix + "." + name], let first = targets.first,
        hasSkelBindingAPI(prefix)
      {
        return first
      }
      prefix = String(prefix[..<(prefix.lastASCII("/") ?? prefix.startIndex)])
    }
    return nil
  }

  /// The skeleton at `path`, or why it cannot skin. `posing` only (its joints' pivots, for its
  /// extent), it needs no bind transforms, as usd-core poses a skeleton without them.
  func skeleton(at path: String, posing: Bool = false) -> Result<USDSkeleton, USDSkinningIssue> {
    guard primTypes[path] == "Skeleton" else {
      return .failure(.init("binds \(path), which is not a Skeleton"))
    }
    guard case .tokens(let joints)? = value(path + ".joints"), !joints.isEmpty else {
      return .failure(.init("its skeleton \(path) has no joints"))
    }
    var bind: [[Double]] = []
    if case .matrices(let given)? = value(path + ".bindTransforms"), given.count == joints.count {
      bind = given
    } else if !posing {
      return .failure(.init("its skeleton \(path) has not one bind transform a joint"))
    }
    var index: [String: Int] = [:]
    var parents: [Int] = []
    for (j, joint) in joints.enumerated() {
      let parent = joint.lastASCII("/").map { String(joint[..<$0]) }
      parents.append(parent.flatMap { index[$0] } ?? -1)
      index[joint] = j
    }
    var rest: [Matrix4<Double>]?
    if case .matrices(let given)? = value(path + ".restTransforms"), given.count == joints.count {
      rest = given.map(Self.columnMatrix)
    }
    return .success(
      USDSkeleton(path: path, joints: joints, parents: parents, bind: bind.map(Self.columnMatrix), rest: rest)
    )
  }

  /// The skeleton's joints relative to their parents at ``timeCode``: its animation's (the
  /// nearest `skel:animationSource` at or above it) where it moves a joint, the rest transforms
  /// elsewhere, as `UsdSkelSkeletonQuery` computes them; the rest transforms alone `atRest`, or
  /// when the animation has no values then (at the default time, an animation in time samples)
  /// or not one translation, rotation and scale a joint, as usd-core falls back to them.
  func jointLocalTransforms(_ skeleton: USDSkeleton, atRest: Bool = false)
    -> Result<[Matrix4<Double>], USDSkinningIssue>
  {
    let animation = atRest ? nil : inheritedTarget("skel:animationSource", from: skeleton.path)
    guard let animation, primTypes[animation] == "SkelAnimation",
      case .tokens(let moved)? = value(animation + ".joints"),
      case .vectors(let translations)? = value(animation + ".translations"),
      case .quaternions(let rotations)? = value(animation + ".rotations"),
      case .vectors(let scales)? = value(animation + ".scales"),
      translations.count == moved.count, rotations.count == moved.count, scales.count == moved.count
    else {
      guard let rest = skeleton.rest else {
        return .failure(
          .init("its skeleton \(skeleton.path) has no rest transforms and no animation to pose it"))
      }
      return .success(rest)
    }
    let index = Dictionary(skeleton.joints.enumerated().map { ($1, $0) }) { first, _ in first }
    var local = skeleton.rest ?? []
    let covered = Set(moved.compactMap { index[$0] })
    guard local.count == skeleton.joints.count || covered.count == skeleton.joints.count else {
      return .failure(
        .init(
          "its animation \(animation) moves some joints and the skeleton has no rest transforms for the others"
        ))
    }
    if local.isEmpty { local = Array(repeating: .identity, count: skeleton.joints.count) }
    for (k, joint) in moved.enumerated() {
      let q = rotations[k]
      guard let j = index[joint], q.isFinite else { continue }
      // Scale, then rotate, then translate (UsdSkelMakeTransform), the rotation the quaternion's
      // matrix as it stands, not made unit, as UsdSkel's (a quaternion a little off unit also
      // scales; a zero one is no turn).
      let rotation = Quaternion<Double>(vector: q).matrix
      local[j] = Matrix4(linear: rotation, translation: translations[k]) * .scale(scales[k])
    }
    return .success(local)
  }

  /// The skinned points of mesh `prim` (its `points`, `count` of them) when it is bound to a
  /// skeleton under a `SkelRoot`: linear blend skinning as UsdSkel defines it, each point
  /// `Σ wᵢ · Sⱼ · Bⱼ⁻¹ · G · p` (joint j's skeleton-space transform at the time, its bind
  /// transform, the mesh's `geomBindTransform`), the weights normalised; nil for a mesh that
  /// is not skinned; an issue for one whose binding cannot be used (drawn unskinned).
  func skin(_ prim: String, points: Vector3Array) -> Result<USDSkin, USDSkinningIssue>? {
    guard skelRoot(of: prim) != nil,
      case .ints(let indices)? = value(prim + ".primvars:skel:jointIndices"),
      case .doubles(let weights)? = value(prim + ".primvars:skel:jointWeights")
    else { return nil }
    guard hasSkelBindingAPI(prim) else {
      return .failure(
        .init(
          "has joint influences but not SkelBindingAPI applied, so usd-core skins it with none (AR Quick Look may)"
        ))
    }
    guard let skeletonPath = inheritedTarget("skel:skeleton", from: prim) else {
      return .failure(
        .init("has joint influences and no skel:skeleton on it or an ancestor with SkelBindingAPI applied"))
    }
    let bound: USDSkeleton, local: [Matrix4<Double>]
    switch skeleton(at: skeletonPath).flatMap({ s in jointLocalTransforms(s).map { (s, $0) } }) {
    case .success(let found): (bound, local) = found
    case .failure(let issue): return .failure(issue)
    }
    let size = layer.elementSizes[prim + ".primvars:skel:jointIndices"] ?? 1
    let rigid = interpolations[prim + ".primvars:skel:jointIndices"] == "constant"
    guard size >= 1, indices.count == weights.count, indices.count == (rigid ? size : size * points.count)
    else {
      return .failure(
        .init(
          "has \(indices.count) joint indices and \(weights.count) weights for \(points.count) points of \(size) influences"
        ))
    }
    // The mesh's own joint order, where it names one.
    var order = Array(bound.joints.indices)
    if case .tokens(let own)? = value(prim + ".skel:joints") {
      let index = Dictionary(bound.joints.enumerated().map { ($1, $0) }) { first, _ in first }
      guard own.allSatisfy({ index[$0] != nil }) else {
        return .failure(.init("names joints in skel:joints that its skeleton \(skeletonPath) does not have"))
      }
      order = own.map { index[$0]! }
    }
    guard indices.allSatisfy({ $0 >= 0 && $0 < order.count }) else {
      return .failure(.init("has a joint index past its \(order.count) joints"))
    }
    let geomBind: Matrix4<Double>
    if case .matrix(let m)? = value(prim + ".primvars:skel:geomBindTransform"), m.count == 16 {
      geomBind = Self.columnMatrix(m)
    } else {
      geomBind = .identity
    }
    let skeletonSpace = bound.skeletonSpace(local)
    var skinning: [Matrix4<Double>] = []
    for j in order {
      guard let inverseBind = bound.bind[j].inverse else {
        return .failure(
          .init("its skeleton \(skeletonPath)'s bind transform of joint \(bound.joints[j]) is singular"))
      }
      skinning.append(skeletonSpace[j] * inverseBind * geomBind)
    }
    return .success(
      Self.blend(
        points.doubles, skinning, indices: indices, weights: weights, size: size, rigid: rigid,
        skeleton: skeletonPath
      ))
  }

  /// Each point through its influences' skinning transforms blended by their weights (summing to
  /// 1; a point of zero weight stays where it is).
  private static func blend(
    _ points: [SIMD3<Double>], _ skinning: [Matrix4<Double>], indices: [Int64], weights: [Double], size: Int,
    rigid: Bool, skeleton: String
  ) -> USDSkin {
    var out = USDSkin(points: [], normalTransforms: [], skeleton: skeleton)
    out.points.reserveCapacity(points.count)
    out.normalTransforms.reserveCapacity(points.count)
    let inverseTransposes = skinning.map { $0.linear.inverse?.transposed ?? $0.linear }
    for (p, point) in points.enumerated() {
      let first = rigid ? 0 : p * size
      let total = weights[first..<first + size].reduce(0, +)
      guard total > 1e-12, total.isFinite else {
        out.points.append(point)
        out.normalTransforms.append(.identity)
        continue
      }
      var blended = SIMD3<Double>.zero
      var normal = Matrix3<Double>(SIMD3.zero, SIMD3.zero, SIMD3.zero)
      for k in first..<first + size where weights[k] != 0 {
        let w = weights[k] / total, j = Int(indices[k])
        blended += skinning[j].transformPoint(point) * w
        normal = normal + inverseTransposes[j] * w
      }
      out.points.append(blended)
      out.normalTransforms.append(normal)
    }
    return out
  }
}

/// Why a mesh's skin cannot be applied: it is drawn unskinned, with a warning saying this.
struct USDSkinningIssue: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
