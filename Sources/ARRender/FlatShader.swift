import ARMath
import RealModule

/// One colour per triangle: white (unlit), or `max(0, n·l)` grey from the flat face normal by
/// the counter-clockwise rule (Lambert comparison mode).
struct FlatShader: FragmentShader {
  let lambertTowards: SIMD3<Float>?
  var readsVertices: Bool { lambertTowards != nil }

  func begin(_ t: SetupTriangle, _ vertices: FrameVertices, _ planes: PerspectivePlanes) -> SIMD4<Float> {
    guard let l = lambertTowards else { return SIMD4(1, 1, 1, 1) }
    let g = Swift.max(0, VertexAttributes.faceNormal(vertices.of(t), swapped: t.swapped).dot(l))
    return SIMD4(g, g, g, 1)
  }

  @inline(__always) func isOpaque(_ t: SetupTriangle) -> Bool { true }
  var defersShading: Bool { false }

  @inline(__always)
  func shade(_ color: SIMD4<Float>, _ batch: FragmentBatch, count: Int) {
    for k in 0..<count { batch.color[k] = color }
  }

  @inline(__always)
  func flatColor(_ color: SIMD4<Float>) -> SIMD4<Float>? { color }
}
