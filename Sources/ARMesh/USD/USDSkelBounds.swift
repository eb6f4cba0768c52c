import ARMath

extension USDStageReader {
  /// The extent of `SkelRoot` `root` in its own space, as usd-core's BBoxCache takes it (which
  /// bounds everything under a SkelRoot by this alone): the authored `extent` at the time, else
  /// what `UsdSkelRoot` computes, for each skeleton its skinned meshes bind, the box of its
  /// joints' pivots at the time (through the skeleton's transform under the root), widened on
  /// every side by a padding: how far the extents of the prims bound to it (through their
  /// `geomBindTransform`) reach past the joints' pivots at rest. A prim is bound as UsdSkel's
  /// cache binds it: a boundable (not a skeleton, nor under another such prim) that inherits a
  /// `skel:skeleton` from a prim with `SkelBindingAPI` applied, joint influences or none. Where
  /// nothing is bound under it, the box of every skeleton's joints under it, unpadded, as
  /// usd-core 26 computes it. Nil when it holds neither (and no extent is authored):
  /// BBoxCache's empty box.
  func skelRootExtent(_ root: String) -> (min: SIMD3<Double>, max: SIMD3<Double>)? {
    if case .vectors(let authored)? = value(root + ".extent"), authored.count == 2,
      authored.allFinite
    {
      return (authored[0], authored[1])
    }
    /// Whether a prim of `type` is one UsdSkel skins (`UsdSkelIsSkinnablePrim`).
    func skinnable(_ type: String?) -> Bool {
      type.map { Self.isBoundable($0) && $0 != "SkelRoot" && $0 != "Skeleton" } ?? false
    }
    var skinnedBySkeleton: [String: [String]] = [:]
    for prim in prims where prim.path.hasPrefix(root + "/") && skelRoot(of: prim.path) == root {
      // UsdSkel's cache walks no further down than a skinnable prim.
      guard skinnable(primTypes[prim.path]),
        !Self.ancestors(of: prim.path).contains(where: {
          $0.hasPrefix(root + "/") && skinnable(primTypes[$0])
        }),
        let skeleton = inheritedTarget("skel:skeleton", from: prim.path)
      else { continue }
      skinnedBySkeleton[skeleton, default: []].append(prim.path)
    }
    if skinnedBySkeleton.isEmpty {
      for prim in prims where prim.type == "Skeleton" && skelRoot(of: prim.path) == root {
        skinnedBySkeleton[prim.path] = []
      }
    }
    guard let rootWorld = try? worldMatrix(root), let worldToRoot = rootWorld.inverse else { return nil }
    var box: (min: SIMD3<Double>, max: SIMD3<Double>)?
    for (path, meshes) in skinnedBySkeleton.sorted(by: { $0.key < $1.key }) {
      guard case .success(let skeleton) = skeleton(at: path, posing: meshes.isEmpty),
        let skeletonWorld = try? worldMatrix(path),
        let pivots = jointPivots(skeleton, through: worldToRoot * skeletonWorld)
      else { continue }
      let padding = extentPadding(skeleton, meshes: meshes)
      let joints = (pivots.min - SIMD3(repeating: padding), pivots.max + SIMD3(repeating: padding))
      box = box.map { (pointwiseMin($0.min, joints.0), pointwiseMax($0.max, joints.1)) } ?? joints
    }
    return box
  }

  /// A `Skeleton` prim's extent as UsdSkel computes it where none is authored, as 8 corners in
  /// its own space: the box of its joints' pivots at the time (posed by its animation); none
  /// for a skeleton that cannot be posed.
  func skeletonExtentCorners(_ path: String) -> [SIMD3<Double>] {
    guard case .success(let skeleton) = skeleton(at: path, posing: true),
      let box = jointPivots(skeleton, through: .identity)
    else { return [] }
    return Self.corners(box)
  }

  /// The box of `skeleton`'s joints' pivots at the time, through `transform` from its space.
  private func jointPivots(_ skeleton: USDSkeleton, through transform: Matrix4<Double>)
    -> (min: SIMD3<Double>, max: SIMD3<Double>)?
  {
    guard case .success(let local) = jointLocalTransforms(skeleton) else { return nil }
    return Self.box(skeleton.skeletonSpace(local).map { transform.transformPoint($0.translation) })
  }

  /// `UsdSkelSkinningQuery.ComputeExtentsPadding` over `meshes`: the largest distance (per axis,
  /// never negative) by which a mesh's extent at its earliest time (authored, else an implicit
  /// shape's schema fallback), through its `geomBindTransform`, reaches past the box of the
  /// skeleton's joint pivots at rest; 0 without rest transforms or extents.
  private func extentPadding(_ skeleton: USDSkeleton, meshes: [String]) -> Double {
    guard case .success(let rest) = jointLocalTransforms(skeleton, atRest: true),
      let joints = Self.box(skeleton.skeletonSpace(rest).map(\.translation))
    else { return 0 }
    var padding = 0.0
    for mesh in meshes {
      var extent: [SIMD3<Double>] = []
      if case .vectors(let authored)? = earliestValue(mesh + ".extent") {
        extent = authored.doubles
      } else if let fallback = Self.fallbackExtents[primTypes[mesh] ?? ""] {
        extent = [fallback.min, fallback.max]
      }
      guard extent.count == 2 else { continue }
      var geomBind = Matrix4<Double>.identity
      if case .matrix(let m)? = earliestValue(mesh + ".primvars:skel:geomBindTransform"), m.count == 16 {
        geomBind = Self.columnMatrix(m)
      }
      guard let bound = Self.box(Self.corners((extent[0], extent[1])).map(geomBind.transformPoint)) else {
        continue
      }
      padding = max(padding, (joints.min - bound.min).max(), (bound.max - joints.max).max())
    }
    return padding
  }

  /// The `extent` the implicit shapes' schemas declare as their fallback (what an unauthored
  /// extent reads as; BBoxCache computes theirs from their size, UsdSkel's padding takes this).
  static let fallbackExtents: [String: (min: SIMD3<Double>, max: SIMD3<Double>)] = [
    "Cube": (SIMD3(repeating: -1), SIMD3(repeating: 1)),
    "Sphere": (SIMD3(repeating: -1), SIMD3(repeating: 1)),
    "Cylinder": (SIMD3(repeating: -1), SIMD3(repeating: 1)),
    "Cone": (SIMD3(repeating: -1), SIMD3(repeating: 1)),
    "Cylinder_1": (SIMD3(repeating: -1), SIMD3(repeating: 1)),
    "Capsule": (SIMD3(-0.5, -0.5, -1), SIMD3(0.5, 0.5, 1)),
    "Capsule_1": (SIMD3(-0.5, -0.5, -1), SIMD3(0.5, 0.5, 1)), "Plane": (SIMD3(-1, -1, 0), SIMD3(1, 1, 0)),
  ]

  /// An attribute's value at its earliest time: its first sample, else its default.
  func earliestValue(_ key: String) -> USDValue? {
    layer.timeSamples[key]?.values.first ?? values[key]
  }

  /// The box of `points`, nil for none.
  static func box(_ points: [SIMD3<Double>]) -> (min: SIMD3<Double>, max: SIMD3<Double>)? {
    guard let first = points.first else { return nil }
    return points.dropFirst().reduce((first, first)) { (pointwiseMin($0.min, $1), pointwiseMax($0.max, $1)) }
  }
}
