import ARMath

/// An indexed triangle mesh in the compact layout the rasterizer and the BVH read directly:
/// parallel per-vertex arrays and three `UInt32` indices a triangle, counter-clockwise front
/// faces, grouped into submeshes by material.
///
/// Positions in metres (model space) as `Float` offsets from a `Double` ``origin``, normals unit
/// length, texture coordinates with v up (OBJ's convention: v = 0 at the image's bottom row).
/// The origin keeps a model in projected or ECEF coordinates to millimetres: a vertex of the
/// model is at `origin + positions[i]`.
public struct Mesh: Sendable, Equatable {
  /// Vertex positions, offsets from ``origin``.
  public var positions: [SIMD3<Float>]
  /// Where ``positions`` are measured from, model space, metres (zero for most models).
  public var origin: SIMD3<Double>
  /// Unit vertex normals, one per position.
  public var normals: [SIMD3<Float>]
  /// Texture coordinates `(u, v)`, one per position, or empty when the mesh has none.
  public var texcoords: [SIMD2<Float>]
  /// A second set of texture coordinates, one per position, for the textures whose
  /// ``TextureReference/texCoord`` is 1 (a glTF asset's occlusion or emissive map on
  /// `TEXCOORD_1`); empty when none uses one.
  public var texcoords1: [SIMD2<Float>] = []
  /// Linear RGB vertex colours, one per position, or empty when the mesh has none.
  public var colors: [SIMD3<Float>]
  /// Three indices into the vertex arrays per triangle.
  public var indices: [UInt32]
  /// Triangle ranges by material, covering all triangles in order.
  public var submeshes: [Submesh]
  /// The materials the submeshes refer to.
  public var materials: [Material]

  /// A run of triangles drawn with one material.
  public struct Submesh: Hashable, Sendable {
    /// Triangles `triangles.lowerBound ..< triangles.upperBound` (indices `3·t …`).
    public var triangles: Range<Int>
    /// Index into ``Mesh/materials``.
    public var material: Int

    /// A group of the triangles `triangles` drawn with material `material`.
    public init(triangles: Range<Int>, material: Int) {
      self.triangles = triangles
      self.material = material
    }
  }

  /// A mesh from its arrays; the caller guarantees consistent counts and indices in range.
  public init(
    positions: [SIMD3<Float>], normals: [SIMD3<Float>], texcoords: [SIMD2<Float>] = [],
    colors: [SIMD3<Float>] = [],
    indices: [UInt32], submeshes: [Submesh]? = nil, materials: [Material] = [.fallback],
    origin: SIMD3<Double> = .zero
  ) {
    self.positions = positions
    self.origin = origin
    self.normals = normals
    self.texcoords = texcoords
    self.colors = colors
    self.indices = indices
    self.submeshes = submeshes ?? [Submesh(triangles: 0..<(indices.count / 3), material: 0)]
    self.materials = materials
  }

  /// Number of vertices.
  public var vertexCount: Int { positions.count }

  /// Number of triangles.
  public var triangleCount: Int { indices.count / 3 }

  /// The three vertex indices of triangle `t`.
  @inlinable
  public func triangle(_ t: Int) -> (Int, Int, Int) {
    (Int(indices[3 * t]), Int(indices[3 * t + 1]), Int(indices[3 * t + 2]))
  }

  /// The axis-aligned bounds of the positions, offsets from ``origin`` (`AxisAlignedBox.empty`
  /// for no vertices).
  public var bounds: AxisAlignedBox<Float> { AxisAlignedBox(enclosing: positions) }

  /// Vertex `i` in model space, `origin + positions[i]`, in `Double`.
  @inlinable
  public func modelPosition(_ i: Int) -> SIMD3<Double> {
    let p = positions[i]
    return origin + SIMD3(Double(p.x), Double(p.y), Double(p.z))
  }
}
