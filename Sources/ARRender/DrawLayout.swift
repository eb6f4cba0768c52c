import ARMath
import ARMesh

/// Where a frame's triangles come from: each draw's transforms and its place in the frame's
/// vertex and triangle sequences.
struct DrawLayout: @unchecked Sendable {
  struct Entry {
    let draw: DrawCall
    let clipFromModel: Matrix4<Float>
    let normalMatrix: Matrix3<Float>
    /// The draw's first vertex and first triangle in the frame's sequences.
    let vertexStart: Int, triangleStart: Int
  }
  let entries: [Entry]
  let vertexCount: Int, triangleCount: Int

  init(_ draws: [DrawCall], clipFromWorld: Matrix4<Float>) {
    var entries: [Entry] = []
    var (vertices, triangles) = (0, 0)
    for draw in draws {
      entries.append(
        Entry(
          draw: draw, clipFromModel: Self.clipFromOffsets(draw, clipFromWorld),
          normalMatrix: draw.worldFromModel.linear.inverse?.transposed ?? .identity, vertexStart: vertices,
          triangleStart: triangles))
      vertices += draw.mesh.vertexCount
      triangles += draw.mesh.triangleCount
    }
    self.entries = entries
    vertexCount = vertices
    triangleCount = triangles
  }

  /// Clip space from a draw's vertex positions, offsets from its mesh's origin. A mesh kept
  /// relative to a far origin (projected or ECEF coordinates) is composed in `Double`, where
  /// the origin's translation and the model's placement cancel, and narrowed once.
  static func clipFromOffsets(_ draw: DrawCall, _ clipFromWorld: Matrix4<Float>) -> Matrix4<Float> {
    guard draw.mesh.origin != .zero else { return clipFromWorld * draw.worldFromModel }
    return Matrix4<Float>(Matrix4<Double>(clipFromWorld) * draw.worldFromModelOffsets)
  }

  /// The vertex stage for the frame's vertices `range`: clip positions and the outcodes for
  /// clipping, and into `attributes` (when given) world position and normal, texture
  /// coordinates and colour.
  func transformVertices(
    _ range: Range<Int>, positions out: UnsafeMutablePointer<SIMD4<Float>>,
    attributes: UnsafeMutablePointer<VertexAttributes>?, outcodes: UnsafeMutablePointer<UInt8>
  ) {
    for entry in entries {
      let mesh = entry.draw.mesh
      let own = range.clamped(to: entry.vertexStart..<entry.vertexStart + mesh.vertexCount)
      guard !own.isEmpty else { continue }
      mesh.positions.withUnsafeBufferPointer { positions in
        for g in own {
          let clip = entry.clipFromModel * SIMD4(positions[g - entry.vertexStart], 1)
          out[g] = clip
          outcodes[g] = FrustumClipper.outcode(clip)
        }
      }
      guard let attributes else { continue }
      let worldFromModel =
        mesh.origin == .zero ? entry.draw.worldFromModel : Matrix4<Float>(entry.draw.worldFromModelOffsets)
      mesh.positions.withUnsafeBufferPointer { positions in
        mesh.normals.withUnsafeBufferPointer { normals in
          mesh.texcoords.withUnsafeBufferPointer { texcoords in
            mesh.colors.withUnsafeBufferPointer { colors in
              for g in own {
                let i = g - entry.vertexStart
                let world = worldFromModel.transformPoint(positions[i])
                let n = entry.normalMatrix * normals[i]
                let uv = texcoords.isEmpty ? SIMD2<Float>(0, 0) : texcoords[i]
                let color = colors.isEmpty ? SIMD3<Float>(1, 1, 1) : colors[i]
                attributes[g] = VertexAttributes(
                  worldAndU: SIMD4(world, uv.x), normalAndV: SIMD4(n, uv.y), color: SIMD4(color, 1))
              }
            }
          }
        }
      }
    }
  }
}
