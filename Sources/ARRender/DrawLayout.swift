import ARMath
import ARMesh

/// Where a frame's triangles come from: each draw's transforms and its place in the frame's
/// vertex and triangle sequences.
struct DrawLayout: @unchecked Sendable {
  struct Entry {
    let draw: DrawCall
    /// Clip space, and the shading frame (the world shifted to the camera's
    /// ``RenderCamera/shadingOrigin``), from the draw's vertex positions.
    let clipFromModel: Matrix4<Float>, shadingFromModel: Matrix4<Float>
    let normalMatrix: Matrix3<Float>
    /// The draw's first vertex and first triangle in the frame's sequences.
    let vertexStart: Int, triangleStart: Int
  }
  let entries: [Entry]
  let vertexCount: Int, triangleCount: Int
  /// The far plane in reversed depth: `z ≤ farLimit · w` (see ``FrustumClipper``).
  let farLimit: Float

  init(_ draws: [DrawCall], camera: RenderCamera) {
    var entries: [Entry] = []
    var (vertices, triangles) = (0, 0)
    let (eye, origin) = (camera.worldFromCamera.translation, camera.shadingOrigin)
    let clipFromEyeCentred = camera.clipFromEyeCentred
    for draw in draws {
      // In `Double`, the large translations (the mesh's origin, its placement, the camera's
      // position) are subtracted before anything is rotated: where the model is, seen from the
      // eye, is a small vector whatever the coordinates, and narrowing it loses nothing.
      let worldFromOffsets = draw.worldFromModelOffsets
      let clipFromModel = Matrix4<Float>(clipFromEyeCentred * worldFromOffsets.translated(by: -eye))
      let shadingFromModel = Matrix4<Float>(worldFromOffsets.translated(by: -origin))
      entries.append(
        Entry(
          draw: draw, clipFromModel: clipFromModel, shadingFromModel: shadingFromModel,
          normalMatrix: draw.worldFromModel.linear.inverse?.transposed ?? .identity, vertexStart: vertices,
          triangleStart: triangles))
      vertices += draw.mesh.vertexCount
      triangles += draw.mesh.triangleCount
    }
    self.entries = entries
    farLimit = camera.farLimit
    vertexCount = vertices
    triangleCount = triangles
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
          outcodes[g] = FrustumClipper.outcode(clip, farLimit: farLimit)
        }
      }
      guard let attributes else { continue }
      let shadingFromModel = entry.shadingFromModel
      mesh.positions.withUnsafeBufferPointer { positions in
        mesh.normals.withUnsafeBufferPointer { normals in
          mesh.texcoords.withUnsafeBufferPointer { texcoords in
            mesh.colors.withUnsafeBufferPointer { colors in
              mesh.texcoords1.withUnsafeBufferPointer { second in
                for g in own {
                  let i = g - entry.vertexStart
                  let world = shadingFromModel.transformPoint(positions[i])
                  let n = entry.normalMatrix * normals[i]
                  let uv = texcoords.isEmpty ? SIMD2<Float>(0, 0) : texcoords[i]
                  let color = colors.isEmpty ? SIMD3<Float>(1, 1, 1) : colors[i]
                  attributes[g] = VertexAttributes(
                    worldAndU: SIMD4(world, uv.x), normalAndV: SIMD4(n, uv.y), color: SIMD4(color, 1),
                    uv1: second.isEmpty ? .zero : second[i])
                }
              }
            }
          }
        }
      }
    }
  }
}
