import ARMath
import RealModule

/// The mesh being built from a scene's primitives: vertices in the asset's frame (`Double`
/// until the end), triangles, and a submesh a primitive.
struct GLTFGeometry {
  var positions: [SIMD3<Double>] = []
  var normals: [SIMD3<Float>] = []
  var texcoords: [SIMD2<Float>] = []
  /// The second texture-coordinate set, where a material's maps sample one.
  var texcoords1: [SIMD2<Float>] = []
  var colors: [SIMD3<Float>] = []
  var indices: [UInt32] = []
  var submeshes: [Mesh.Submesh] = []
  var materials: [Material] = []
  /// Each material's `KHR_texture_transform` of its base colour texture.
  var textureTransforms: [GLTFDocument.TextureTransform?] = []
  private var anyTexcoords = false, anyTexcoords1 = false, anyColors = false

  /// Appends a primitive placed by `world`, drawn with material `material`.
  mutating func append(_ p: GLTFPrimitiveAttributes, world: Matrix4<Double>, mode: Int, material: Int) {
    let linear = world.linear
    let mirrored = linear.determinant < 0
    let firstTriangle = indices.count / 3
    let base = UInt32(positions.count)
    // Without normals the specification asks for flat ones: each triangle its own vertices.
    let flat = p.normals == nil
    let count = flat ? p.triangles.count : p.positions.count
    Self.grow(&positions, by: count)
    Self.grow(&normals, by: count)
    Self.grow(&texcoords, by: count)
    Self.grow(&texcoords1, by: count)
    Self.grow(&colors, by: count)
    Self.grow(&indices, by: p.triangles.count)
    if let given = p.normals {
      let normalMatrix = linear.inverse?.transposed ?? linear
      for v in p.positions.indices {
        positions.append(world.transformPoint(p.positions[v]))
        normals.append(Self.unit(normalMatrix * given[v]))
      }
    } else {
      for t in stride(from: 0, to: p.triangles.count, by: 3) {
        let a = world.transformPoint(p.positions[Int(p.triangles[t])])
        let b = world.transformPoint(p.positions[Int(p.triangles[t + 1])])
        let c = world.transformPoint(p.positions[Int(p.triangles[t + 2])])
        let normal = Self.unit((b - a).cross(c - a) * (mirrored ? -1 : 1))
        positions.append(a)
        positions.append(b)
        positions.append(c)
        normals.append(normal)
        normals.append(normal)
        normals.append(normal)
      }
    }
    appendTexcoordsAndColors(
      p, vertexOf: { k in flat ? Int(p.triangles[k]) : k }, count: count, material: material)
    for t in stride(from: 0, to: p.triangles.count, by: 3) {
      // Flat vertices are the triangle corners in order.
      let (a, b, c) =
        flat
        ? (UInt32(t) + base, UInt32(t + 1) + base, UInt32(t + 2) + base)
        : (p.triangles[t] + base, p.triangles[t + 1] + base, p.triangles[t + 2] + base)
      indices.append(a)
      indices.append(mirrored ? c : b)
      indices.append(mirrored ? b : c)
    }
    let lastTriangle = indices.count / 3
    if lastTriangle > firstTriangle {
      submeshes.append(Mesh.Submesh(triangles: firstTriangle..<lastTriangle, material: material))
    }
  }

  /// Room in `array` for `more` elements, at least doubling its capacity when it grows: an exact
  /// `reserveCapacity` before each of many primitives would copy the whole array each time.
  private static func grow<T>(_ array: inout [T], by more: Int) {
    let needed = array.count + more
    if array.capacity < needed { array.reserveCapacity(Swift.max(needed, 2 * array.capacity)) }
  }

  /// The texture coordinates (glTF's top-left origin turned to ARScene's bottom-left, through
  /// the material's texture transform) and colours of the `count` new vertices, vertex `k` being
  /// the primitive's `vertexOf(k)`; zeros and white where the primitive has none.
  private mutating func appendTexcoordsAndColors(
    _ p: GLTFPrimitiveAttributes, vertexOf: (Int) -> Int, count: Int, material: Int
  ) {
    let transform = textureTransforms[safe: material] ?? nil
    if let uvs = p.texcoords {
      for k in 0..<count {
        let turned = Self.transformed(uvs[vertexOf(k)], transform)
        texcoords.append(SIMD2(Float(turned.x), Float(1 - turned.y)))
      }
    } else {
      texcoords.append(contentsOf: repeatElement(.zero, count: count))
    }
    // The second set as it is (KHR_texture_transform applies to the base colour's set).
    if let uvs = p.texcoords1 {
      for k in 0..<count {
        let uv = uvs[vertexOf(k)]
        texcoords1.append(SIMD2(Float(uv.x), Float(1 - uv.y)))
      }
    } else {
      texcoords1.append(contentsOf: repeatElement(.zero, count: count))
    }
    anyTexcoords1 = anyTexcoords1 || p.texcoords1 != nil
    if let given = p.colors {
      for k in 0..<count {
        let c = given[vertexOf(k)]
        colors.append(SIMD3(Float(c.x), Float(c.y), Float(c.z)))
      }
    } else {
      colors.append(contentsOf: repeatElement(SIMD3(1, 1, 1), count: count))
    }
    anyTexcoords = anyTexcoords || p.texcoords != nil
    anyColors = anyColors || p.colors != nil
  }

  private static func unit(_ v: SIMD3<Double>) -> SIMD3<Float> {
    let length = (v * v).sum().squareRoot()
    guard length > 0, length.isFinite else { return SIMD3(0, 1, 0) }
    let u = v / length
    return SIMD3(Float(u.x), Float(u.y), Float(u.z))
  }

  /// `KHR_texture_transform`: scale, then rotate counter-clockwise, then offset (UV space).
  private static func transformed(_ uv: SIMD2<Double>, _ t: GLTFDocument.TextureTransform?) -> SIMD2<Double> {
    guard let t else { return uv }
    let s = t.scale.flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil } ?? SIMD2(1, 1)
    let o = t.offset.flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil } ?? .zero
    let r = t.rotation ?? 0
    let scaled = uv * s
    let (c, sn) = (Double.cos(r), Double.sin(r))
    return SIMD2(c * scaled.x + sn * scaled.y, -sn * scaled.x + c * scaled.y) + o
  }

  /// The mesh: Float offsets from an origin at the bounds' centre when the asset lies far from
  /// its own (a georeferenced model), else from zero.
  func mesh() -> Mesh {
    var origin = SIMD3<Double>.zero
    if let first = positions.first {
      var (low, high) = (first, first)
      for p in positions {
        low = pointwiseMin(low, p)
        high = pointwiseMax(high, p)
      }
      let centre = (low + high) / 2
      if (centre * centre).sum() > 1e8 { origin = centre }
    }
    let offsets = positions.map { p in SIMD3<Float>(p - origin) }
    var mesh = Mesh(
      positions: offsets, normals: normals, texcoords: anyTexcoords ? texcoords : [],
      colors: anyColors ? colors : [], indices: indices, submeshes: submeshes,
      materials: materials.isEmpty ? [.fallback] : materials, origin: origin)
    mesh.texcoords1 = anyTexcoords1 ? texcoords1 : []
    return mesh
  }
}
