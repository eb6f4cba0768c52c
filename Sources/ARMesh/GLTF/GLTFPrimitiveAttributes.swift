/// One primitive's vertex attributes and its triangles, read and checked: POSITION (required),
/// NORMAL, one TEXCOORD set and COLOR_0, all of one count; the indices (or 0…n−1) turned into a
/// triangle list from the primitive's mode (triangles, a strip, a fan).
struct GLTFPrimitiveAttributes {
  var positions: Vector3Array
  /// The normals given (nil: none, or ``smoothNormalsPending``).
  var normals: [SIMD3<Double>]?
  /// Normals still to be made smooth, a vertex's the sum of its triangles' cross products
  /// (``smoothNormals(_:_:)``): made where the primitive is placed, while its points are in
  /// cache, not stored here first (``withNormalsMade()`` makes them here).
  var smoothNormalsPending = false
  var texcoords: [SIMD2<Double>]?
  /// The second set the material's maps sample, when one does.
  var texcoords1: [SIMD2<Double>]?
  var colors: [SIMD3<Double>]?
  /// Three vertex indices a triangle, counter-clockwise front faces.
  var triangles: [UInt32]
  /// What was read but not as the file declares it, one line each (its pointer first).
  var notes: [String] = []

  /// Joints (node indices into the skin's `joints`) and weights of each vertex, when read.
  var joints: [SIMD4<Int>]?
  var jointWeights: [SIMD4<Double>]?

  init(
    _ primitive: GLTFDocument.Primitive, accessors: GLTFAccessors, texCoordSets: (Int, Int?),
    morphWeights: [Double]?,
    skinned: Bool, at here: String
  ) throws(GLTFError) {
    let path = accessors.container.path
    guard let positionAccessor = primitive.attributes["POSITION"] else {
      throw GLTFError(path: path, pointer: here + "/attributes", reason: "no POSITION")
    }
    let draco = try GLTFDracoPrimitive(primitive, accessors: accessors, at: here)
    /// Attribute `name` from the Draco mesh when it holds it, else from its accessor.
    func read(_ name: String, _ index: Int, _ types: Set<String>) throws(GLTFError) -> (
      values: [Double], components: Int
    ) {
      let pointer = here + "/attributes/" + name
      if let decoded = try draco?.attribute(
        name, index: index, types: types, accessors: accessors, at: pointer)
      {
        return decoded
      }
      return try accessors.read(index, expect: types, at: pointer)
    }
    /// A VEC3 attribute from the Draco mesh when it holds it, else straight from its accessor.
    func vectors(_ name: String, _ index: Int) throws(GLTFError) -> [SIMD3<Double>] {
      let pointer = here + "/attributes/" + name
      if let decoded = try draco?.attribute(
        name, index: index, types: ["VEC3"], accessors: accessors, at: pointer)
      {
        return Self.rows3(decoded.values)
      }
      return try accessors.vectors3(index, at: pointer)
    }
    positions = Vector3Array(try vectors("POSITION", positionAccessor))
    let count = positions.count
    func attribute(_ name: String, _ types: Set<String>) throws(GLTFError) -> (
      values: [Double], components: Int
    )? {
      guard let index = primitive.attributes[name] else { return nil }
      let read = try read(name, index, types)
      guard read.values.count / read.components == count else {
        throw GLTFError(
          path: path, pointer: here + "/attributes/" + name,
          reason: "\(read.values.count / read.components) elements where POSITION has \(count)")
      }
      return read
    }
    if let index = primitive.attributes["NORMAL"] {
      let rows = try vectors("NORMAL", index)
      guard rows.count == count else {
        throw GLTFError(
          path: path, pointer: here + "/attributes/NORMAL",
          reason: "\(rows.count) elements where POSITION has \(count)")
      }
      normals = rows
    }
    if skinned, let j = try attribute("JOINTS_0", ["VEC4"]), let w = try attribute("WEIGHTS_0", ["VEC4"]) {
      guard j.values.allSatisfy({ $0 >= 0 && $0 <= 65_535 && $0 == $0.rounded() }) else {
        throw GLTFError(
          path: path, pointer: here + "/attributes/JOINTS_0",
          reason: "joint indices must be whole numbers 0 to 65535")
      }
      var jointRows: [SIMD4<Int>] = [], weightRows: [SIMD4<Double>] = []
      for v in 0..<count {
        let (a, b) = (j.values, w.values)
        let k = 4 * v
        jointRows.append(SIMD4<Int>(Int(a[k]), Int(a[k + 1]), Int(a[k + 2]), Int(a[k + 3])))
        weightRows.append(SIMD4<Double>(b[k], b[k + 1], b[k + 2], b[k + 3]))
      }
      (joints, jointWeights) = (jointRows, weightRows)
    }
    func coordinates(_ set: Int) throws(GLTFError) -> [SIMD2<Double>]? {
      try attribute("TEXCOORD_\(set)", ["VEC2"]).map { read in
        [SIMD2<Double>](unsafeUninitializedCapacity: read.values.count / 2) { rows, initialized in
          for i in 0..<rows.count { rows[i] = SIMD2(read.values[2 * i], read.values[2 * i + 1]) }
          initialized = rows.count
        }
      }
    }
    texcoords = try coordinates(texCoordSets.0)
    texcoords1 = try texCoordSets.1.flatMap { set throws(GLTFError) in try coordinates(set) }
    colors = try attribute("COLOR_0", ["VEC3", "VEC4"]).map { read in
      stride(from: 0, to: read.values.count, by: read.components).map {
        SIMD3(read.values[$0], read.values[$0 + 1], read.values[$0 + 2])
      }
    }
    let order: [UInt32]
    if let draco {
      order = try draco.indices(at: here + "/extensions/KHR_draco_mesh_compression", path: path)
      notes = draco.countMismatches(primitive, accessors: accessors, at: here)
    } else if let indices = primitive.indices {
      order = try accessors.indices(indices, vertexCount: count, at: here + "/indices")
    } else {
      order = (0..<UInt32(count)).map { $0 }
    }
    triangles = Self.triangleList(order, mode: primitive.mode ?? 4)
    if let weights = morphWeights {
      try applyMorphTargets(primitive, weights, accessors: accessors, at: here)
    }
  }

  /// Positions and a triangle list alone (another format's mesh: flat normals follow).
  init(positions: [SIMD3<Double>], triangles: [UInt32]) {
    self.init(positions: Vector3Array(positions), triangles: triangles)
  }

  /// Positions (held as they were read: a USD crate's floats stay floats) and a triangle list.
  init(positions: Vector3Array, triangles: [UInt32]) {
    self.positions = positions
    self.triangles = triangles
  }

  /// Adds each morph target's POSITION and NORMAL displacements times its weight.
  private mutating func applyMorphTargets(
    _ primitive: GLTFDocument.Primitive, _ weights: [Double], accessors: GLTFAccessors, at here: String
  ) throws(GLTFError) {
    for (t, target) in (primitive.targets ?? []).enumerated() where t < weights.count && weights[t] != 0 {
      for (name, index) in target where name == "POSITION" || name == "NORMAL" {
        let read = try accessors.read(index, expect: ["VEC3"], at: here + "/targets/\(t)/" + name)
        let deltas = Self.rows3(read.values)
        guard deltas.count == positions.count else {
          throw GLTFError(
            path: accessors.container.path, pointer: here + "/targets/\(t)/" + name,
            reason: "\(deltas.count) displacements where POSITION has \(positions.count)")
        }
        if name == "POSITION" {
          positions.modifyDoubles { positions in
            for i in positions.indices { positions[i] += weights[t] * deltas[i] }
          }
        } else if normals != nil {
          for i in positions.indices { normals![i] += weights[t] * deltas[i] }
        }
      }
    }
  }

  static func rows3(_ values: [Double]) -> [SIMD3<Double>] {
    [SIMD3<Double>](unsafeUninitializedCapacity: values.count / 3) { rows, initialized in
      values.withUnsafeBufferPointer { v in
        for i in 0..<rows.count { rows[i] = SIMD3(v[3 * i], v[3 * i + 1], v[3 * i + 2]) }
      }
      initialized = rows.count
    }
  }

  /// A triangle list from `order` in `mode` (4 triangles, 5 strip, 6 fan); a strip's every
  /// other triangle turned so that all keep the first's winding, as the specification draws them.
  static func triangleList(_ order: [UInt32], mode: Int) -> [UInt32] {
    var list: [UInt32] = []
    switch mode {
    case 5:
      guard order.count >= 3 else { return [] }
      for i in 0..<(order.count - 2) {
        let (a, b, c) = (order[i], order[i + 1], order[i + 2])
        list += i % 2 == 0 ? [a, b, c] : [b, a, c]
      }
      return list
    case 6:
      guard order.count >= 3 else { return [] }
      for i in 1..<(order.count - 1) { list += [order[0], order[i], order[i + 1]] }
      return list
    default:
      return Array(order.prefix(order.count / 3 * 3))
    }
  }
}
