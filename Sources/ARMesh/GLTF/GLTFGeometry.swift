import ARMath
import RealModule

/// The mesh being built from a scene's primitives: vertices in the asset's frame (`Double`
/// until the end), triangles, and a submesh a primitive.
struct GLTFGeometry {
  var positions: [SIMD3<Double>] = []
  var normals: [SIMD3<Float>] = []
  var texcoords: [SIMD2<Float>] = []
  var colors: [SIMD3<Float>] = []
  var indices: [UInt32] = []
  var submeshes: [Mesh.Submesh] = []
  var materials: [Material] = []
  /// Each material's `KHR_texture_transform` of its base colour texture.
  var textureTransforms: [GLTFDocument.TextureTransform?] = []
  private var anyTexcoords = false, anyColors = false

  /// Appends a primitive placed by `world`, drawn with material `material`.
  mutating func append(_ p: GLTFPrimitiveAttributes, world: Matrix4<Double>, mode: Int, material: Int) {
    let linear = world.linear
    let normalMatrix = linear.inverse?.transposed ?? linear
    let mirrored = linear.determinant < 0
    let firstTriangle = indices.count / 3
    // Without normals the specification asks for flat ones: each triangle its own vertices.
    let flat = p.normals == nil
    let order: [UInt32] =
      flat ? Array(0..<UInt32(p.triangles.count)) : (0..<UInt32(p.positions.count)).map { $0 }
    let sources: [Int] = flat ? p.triangles.map(Int.init) : Array(p.positions.indices)
    let base = UInt32(positions.count)
    let transform = textureTransforms[safe: material] ?? nil
    for (k, v) in sources.enumerated() {
      positions.append(world.transformPoint(p.positions[v]))
      if let n = p.normals?[v] {
        normals.append(Self.unit(normalMatrix * n))
      } else {
        let t = k / 3 * 3
        let a = world.transformPoint(p.positions[sources[t]])
        let b = world.transformPoint(p.positions[sources[t + 1]])
        let c = world.transformPoint(p.positions[sources[t + 2]])
        normals.append(Self.unit((b - a).cross(c - a) * (mirrored ? -1 : 1)))
      }
      if let uv = p.texcoords?[v] {
        let turned = Self.transformed(uv, transform)
        texcoords.append(SIMD2(Float(turned.x), Float(1 - turned.y)))
      } else {
        texcoords.append(.zero)
      }
      let color = p.colors?[v] ?? SIMD3(1, 1, 1)
      colors.append(SIMD3(Float(color.x), Float(color.y), Float(color.z)))
    }
    anyTexcoords = anyTexcoords || p.texcoords != nil
    anyColors = anyColors || p.colors != nil
    let triangles = flat ? order : p.triangles
    for t in stride(from: 0, to: triangles.count, by: 3) {
      let (a, b, c) = (triangles[t] + base, triangles[t + 1] + base, triangles[t + 2] + base)
      indices += mirrored ? [a, c, b] : [a, b, c]
    }
    let lastTriangle = indices.count / 3
    if lastTriangle > firstTriangle {
      submeshes.append(Mesh.Submesh(triangles: firstTriangle..<lastTriangle, material: material))
    }
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
    return Mesh(
      positions: offsets, normals: normals, texcoords: anyTexcoords ? texcoords : [],
      colors: anyColors ? colors : [], indices: indices, submeshes: submeshes,
      materials: materials.isEmpty ? [.fallback] : materials, origin: origin)
  }
}
