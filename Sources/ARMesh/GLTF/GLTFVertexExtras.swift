import RealModule

/// The optional vertex attributes of a mesh's vertices, primitive after primitive: texture
/// coordinates (glTF's top-left origin turned to ARScene's bottom-left, through the material's
/// `KHR_texture_transform`) and colours. An attribute no primitive has is left empty; zeros and
/// white fill in for the primitives without one that another has.
struct GLTFVertexExtras {
  /// The base colour texture's coordinates.
  private(set) var texcoords: [SIMD2<Float>] = []
  /// The second texture-coordinate set, where a material's maps sample one.
  private(set) var texcoords1: [SIMD2<Float>] = []
  private(set) var colors: [SIMD3<Float>] = []
  private var anyTexcoords = false, anyTexcoords1 = false, anyColors = false
  /// Each material's texture transform of its base colour texture, and of its maps on the
  /// second set.
  let textureTransforms: [GLTFDocument.TextureTransform?], secondTransforms: [GLTFDocument.TextureTransform?]

  init(
    textureTransforms: [GLTFDocument.TextureTransform?], secondTransforms: [GLTFDocument.TextureTransform?]
  ) {
    self.textureTransforms = textureTransforms
    self.secondTransforms = secondTransforms
  }

  /// Appends the attributes of a primitive's `count` vertices, the mesh's vertices `before`
  /// and on, vertex `k` being the primitive's `vertexOf(k)`, drawn with material `material`.
  mutating func append(
    _ p: GLTFPrimitiveAttributes, vertexOf: (Int) -> Int, before: Int, count: Int, material: Int
  ) {
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
}
