import CMathShims

/// A frame's vertex buffers as plain pointers, for the rasterizer's workers.
struct FrameVertices: @unchecked Sendable {
  let positions: UnsafePointer<SIMD4<Float>>
  /// Nil when the frame's shading reads only clip positions.
  let attributes: UnsafePointer<VertexAttributes>?
  let sharedCount: Int
  /// Each batch's clipped vertices.
  let clipped: UnsafePointer<UnsafePointer<ClipVertex>?>

  /// The attributes of `t`'s three vertices, in its rasterization order. Only for frames with
  /// attributes.
  @inline(__always)
  func of(_ t: SetupTriangle) -> (VertexAttributes, VertexAttributes, VertexAttributes) {
    @inline(__always) func at(_ i: Int32) -> VertexAttributes {
      let i = Int(i)
      return i < sharedCount
        ? attributes.unsafelyUnwrapped[i]
        : clipped[Int(t.batch)].unsafelyUnwrapped[i - sharedCount].attributes
    }
    return (at(t.vertex.x), at(t.vertex.y), at(t.vertex.z))
  }

  /// Starts loading the attributes of `t`'s vertices into the cache.
  @inline(__always)
  func prefetch(_ t: SetupTriangle) {
    guard let attributes else { return }
    for i in [t.vertex.x, t.vertex.y, t.vertex.z] where Int(i) < sharedCount {
      arscene_prefetch(attributes + Int(i))
    }
  }
}
