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
  /// Each material's `KHR_texture_transform` of its maps on the second texture-coordinate set.
  var secondTransforms: [GLTFDocument.TextureTransform?] = []
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

  /// Room for `vertices` more vertices and `indices` more indices: a caller that knows its
  /// primitives' sizes spares the arrays' regrowth.
  mutating func reserve(vertices: Int, indices more: Int) {
    positions.reserveCapacity(positions.count + vertices)
    normals.reserveCapacity(normals.count + vertices)
    indices.reserveCapacity(indices.count + more)
  }

  /// The texture coordinates (glTF's top-left origin turned to ARScene's bottom-left, through
  /// the material's texture transform) and colours of the `count` new vertices, vertex `k` being
  /// the primitive's `vertexOf(k)`; zeros and white where the primitive has none. An attribute
  /// no primitive has had yet is not stored at all (the mesh leaves it empty).
  private mutating func appendTexcoordsAndColors(
    _ p: GLTFPrimitiveAttributes, vertexOf: (Int) -> Int, count: Int, material: Int
  ) {
    let before = positions.count - count
    /// The new vertices' coordinates of a set through `transform`, v turned to point up.
    func turned(_ uvs: [SIMD2<Double>], _ transform: GLTFDocument.TextureTransform?) -> [SIMD2<Float>] {
      (0..<count).map { k in
        let uv = Self.transformed(uvs[vertexOf(k)], transform)
        return SIMD2(Float(uv.x), Float(1 - uv.y))
      }
    }
    // The base colour's set through its transform, the second set through its maps'.
    Self.append(
      p.texcoords.map { turned($0, textureTransforms[safe: material] ?? nil) }, to: &texcoords,
      seen: &anyTexcoords, before: before, count: count, fill: .zero)
    Self.append(
      p.texcoords1.map { turned($0, secondTransforms[safe: material] ?? nil) }, to: &texcoords1,
      seen: &anyTexcoords1, before: before, count: count, fill: .zero)
    Self.append(
      p.colors.map { given in
        (0..<count).map { k in
          SIMD3(Float(given[vertexOf(k)].x), Float(given[vertexOf(k)].y), Float(given[vertexOf(k)].z))
        }
      }, to: &colors, seen: &anyColors, before: before, count: count, fill: SIMD3(1, 1, 1))
  }

  /// Appends a primitive's `values` of an optional attribute to `array`, or `count` of `fill`
  /// where it has none; the first primitive that has one fills the `before` vertices earlier
  /// ones added.
  private static func append<T>(
    _ values: [T]?, to array: inout [T], seen: inout Bool, before: Int, count: Int, fill: T
  ) {
    guard let values else {
      if seen { array.append(contentsOf: repeatElement(fill, count: count)) }
      return
    }
    if !seen {
      array = [T](repeating: fill, count: before)
      seen = true
    }
    array.append(contentsOf: values)
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
