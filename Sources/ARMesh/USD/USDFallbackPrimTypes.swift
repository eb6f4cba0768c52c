/// A stage's `fallbackPrimTypes` (layer metadata): for prim types a newer schema defines, the
/// types to read them as where that schema is unknown, in order of preference. usd-core reads
/// a prim of an unknown type as the first of its fallbacks it knows (a `FancyMesh` listed
/// with `["Mesh"]` is a mesh, drawn and bounded); ARScene does the same, so that such a prim
/// is not dropped without a word.
enum USDFallbackPrimTypes {
  /// The concrete prim types OpenUSD's own schemas define, which usd-core knows: a prim of one
  /// of these keeps its type whatever the fallbacks say.
  static let known: Set<String> = [
    "Xform", "Scope", "Mesh", "GeomSubset", "Sphere", "Cube", "Cylinder", "Cylinder_1", "Cone", "Capsule",
    "Capsule_1", "Plane", "Points", "BasisCurves", "NurbsCurves", "HermiteCurves", "NurbsPatch", "TetMesh",
    "PointInstancer", "Camera", "Material", "Shader", "NodeGraph", "SkelRoot", "Skeleton", "SkelAnimation",
    "BlendShape", "DistantLight", "DomeLight", "DomeLight_1", "SphereLight", "RectLight", "DiskLight",
    "CylinderLight", "PortalLight", "GeometryLight", "PluginLight", "LightFilter", "PluginLightFilter",
    "Volume", "OpenVDBAsset", "Field3DAsset", "SpatialAudio", "RenderSettings", "RenderProduct", "RenderVar",
    "RenderPass", "GenerativeProcedural", "PhysicsScene", "PhysicsCollisionGroup", "PhysicsJoint",
    "PhysicsRevoluteJoint", "PhysicsPrismaticJoint", "PhysicsSphericalJoint", "PhysicsDistanceJoint",
    "PhysicsFixedJoint", "ParticleField", "ParticleField3DGaussianSplat",
  ]

  /// The type a prim of `type` is read as: its own when usd-core knows it or no fallback is
  /// listed, else the first of `fallbacks[type]` that it knows.
  static func resolved(_ type: String, _ fallbacks: [String: [String]]) -> String {
    guard !type.isEmpty, !known.contains(type), let listed = fallbacks[type] else { return type }
    return listed.first(where: known.contains) ?? type
  }

  /// A crate's `fallbackPrimTypes` dictionary (`rep`, a `VtDictionary` of token arrays) as
  /// type names to their fallbacks; entries whose value is not a token array are left out.
  static func decode(_ rep: UInt64, in crate: USDCrate, at place: String) throws(USDError) -> [String:
    [String]]
  {
    // A dictionary (type 31), never inlined: a count, then each entry's key (a string index)
    // and an offset, from before it, to its value's representation, which follows the value's
    // own data; the next entry follows the representation.
    guard (rep >> 48) & 0xFF == 31, rep & (1 << 62) == 0 else { return [:] }
    var r = USDByteReader(bytes: crate.bytes, path: crate.path, place: place)
    r.at = Int(rep & ((1 << 48) - 1))
    let count = try r.count()
    var found: [String: [String]] = [:]
    for _ in 0..<count {
      guard let key = crate.string(Int(try r.uint32())) else {
        throw r.fail("a dictionary key names no string")
      }
      let start = r.at
      let offset = try r.int64()
      guard offset >= 8, offset <= Int64(crate.bytes.count) else {
        throw r.fail("a dictionary value's offset \(offset)")
      }
      r.at = start + Int(offset)
      let valueRep = try r.int64()
      if case .tokens(let types)? = try USDValue.decode(UInt64(bitPattern: valueRep), in: crate, at: place) {
        found[key] = types
      }
    }
    return found
  }
}
