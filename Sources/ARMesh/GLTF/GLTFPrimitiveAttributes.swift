/// One primitive's vertex attributes and its triangles, read and checked: POSITION (required),
/// NORMAL, one TEXCOORD set and COLOR_0, all of one count; the indices (or 0…n−1) turned into a
/// triangle list from the primitive's mode (triangles, a strip, a fan).
struct GLTFPrimitiveAttributes {
  var positions: [SIMD3<Double>]
  var normals: [SIMD3<Double>]?
  var texcoords: [SIMD2<Double>]?
  var colors: [SIMD3<Double>]?
  /// Three vertex indices a triangle, counter-clockwise front faces.
  var triangles: [UInt32]

  init(
    _ primitive: GLTFDocument.Primitive, accessors: GLTFAccessors, texCoordSet: Int, at here: String
  ) throws(GLTFError) {
    let path = accessors.container.path
    guard let positionAccessor = primitive.attributes["POSITION"] else {
      throw GLTFError(path: path, pointer: here + "/attributes", reason: "no POSITION")
    }
    let position = try accessors.read(positionAccessor, expect: ["VEC3"], at: here + "/attributes/POSITION")
    positions = Self.rows3(position.values)
    let count = positions.count
    func attribute(_ name: String, _ types: Set<String>) throws(GLTFError) -> (
      values: [Double], components: Int
    )? {
      guard let index = primitive.attributes[name] else { return nil }
      let read = try accessors.read(index, expect: types, at: here + "/attributes/" + name)
      guard read.values.count / read.components == count else {
        throw GLTFError(
          path: path, pointer: here + "/attributes/" + name,
          reason: "\(read.values.count / read.components) elements where POSITION has \(count)")
      }
      return read
    }
    normals = try attribute("NORMAL", ["VEC3"]).map { Self.rows3($0.values) }
    texcoords = try attribute("TEXCOORD_\(texCoordSet)", ["VEC2"]).map { read in
      stride(from: 0, to: read.values.count, by: 2).map { SIMD2(read.values[$0], read.values[$0 + 1]) }
    }
    colors = try attribute("COLOR_0", ["VEC3", "VEC4"]).map { read in
      stride(from: 0, to: read.values.count, by: read.components).map {
        SIMD3(read.values[$0], read.values[$0 + 1], read.values[$0 + 2])
      }
    }
    let order: [UInt32]
    if let indices = primitive.indices {
      order = try accessors.indices(indices, vertexCount: count, at: here + "/indices")
    } else {
      order = (0..<UInt32(count)).map { $0 }
    }
    triangles = Self.triangleList(order, mode: primitive.mode ?? 4)
  }

  static func rows3(_ values: [Double]) -> [SIMD3<Double>] {
    stride(from: 0, to: values.count, by: 3).map { SIMD3(values[$0], values[$0 + 1], values[$0 + 2]) }
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
