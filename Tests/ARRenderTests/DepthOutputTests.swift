import ARImage
import ARMath
import ARMesh
import ARRender
import Testing

/// The depth a frame can be rendered with: each pixel's distance along the view axis to the
/// nearest opaque surface, exact to Float's precision from a 1 mm near plane out to 300 m.
@Suite("Rendered depth")
struct DepthOutputTests {
  /// A quad through `centre` with normal `normal`, `half` metres from its centre to its edges.
  static func plane(centre: SIMD3<Float>, normal: SIMD3<Float>, half: Float) -> Mesh {
    let n = normal.normalized()
    let u = (abs(n.y) < 0.9 ? SIMD3<Float>(0, 1, 0) : SIMD3(1, 0, 0)).cross(n).normalized()
    let v = n.cross(u)
    let corners = [
      centre - half * u - half * v, centre + half * u - half * v, centre + half * u + half * v,
      centre - half * u + half * v,
    ]
    return Mesh(positions: corners, normals: Array(repeating: n, count: 4), indices: [0, 1, 2, 0, 2, 3])
  }

  static let intrinsics = CameraIntrinsics<Float>(fx: 300, fy: 320, cx: 161, cy: 118, width: 320, height: 240)

  /// The distance along the view axis to the plane through `p0` with normal `n` at pixel
  /// centre `(u, v)`, the camera at the origin looking down −Z (in Double).
  static func analytic(u: Double, v: Double, p0: SIMD3<Double>, n: SIMD3<Double>) -> Double {
    let k = intrinsics
    let ray = SIMD3((u - Double(k.cx)) / Double(k.fx), -(v - Double(k.cy)) / Double(k.fy), -1)
    return (n * p0).sum() / (n * ray).sum()
  }

  @Test(
    "a tilted plane's depth is the analytic distance at every pixel it covers, +∞ elsewhere",
    arguments: [(Float(0.001), Float(5)), (0.001, 300), (0.5, 40)])
  func tiltedPlane(near: Float, distance: Float) throws {
    let normal = SIMD3<Float>(0.3, -0.2, 1)
    let centre = SIMD3<Float>(0.1, 0.05, -distance)
    let mesh = Self.plane(centre: centre, normal: normal, half: distance * 0.25)
    let camera = RenderCamera(intrinsics: Self.intrinsics, worldFromCamera: .identity, near: near, far: 1000)
    let (image, depth) = try FrameRenderer().renderWithDepth(
      [try DrawCall(mesh: mesh, cullBackFaces: false)], camera: camera, shading: .unlit)
    var covered = 0, worst = 0.0
    for y in 0..<depth.height {
      for x in 0..<depth.width {
        let d = depth.pixels[y * depth.width + x]
        let drawn = image.pixels[y * image.width + x].x > 0
        #expect(drawn == d.isFinite, "pixel \(x), \(y): drawn \(drawn), depth \(d)")
        guard d.isFinite else { continue }
        covered += 1
        let truth = Self.analytic(
          u: Double(x) + 0.5, v: Double(y) + 0.5, p0: SIMD3<Double>(centre), n: SIMD3<Double>(normal))
        worst = max(worst, abs(Double(d) - truth) / truth)
      }
    }
    #expect(covered > 10_000)
    // Float's relative precision, a few tens of its steps (the quad's corners are Float too, so
    // the reference plane itself is that far off): 300 m to 1.5 mm, 5 m to 25 µm.
    #expect(worst < 5e-6, "worst relative depth error \(worst)")
  }

  @Test("with supersampling, a pixel's depth is its nearest sample's; rendering with depth changes no colour")
  func supersampled() throws {
    let mesh = Self.plane(centre: [0, 0, -3], normal: [0.5, 0, 1], half: 0.8)
    let camera = RenderCamera(intrinsics: Self.intrinsics, worldFromCamera: .identity, near: 0.01, far: 100)
    let settings = RenderSettings(supersampling: 3, threads: 2)
    let draws = [try DrawCall(mesh: mesh, cullBackFaces: false)]
    let (image, depth) = try FrameRenderer().renderWithDepth(
      draws, camera: camera, shading: .unlit, settings: settings)
    let plain = try FrameRenderer().render(draws, camera: camera, shading: .unlit, settings: settings)
    #expect(image == plain)
    // Edge pixels partly covered (grey) have the depth of their covered samples.
    let partial = zip(image.pixels, depth.pixels).filter { $0.0.x > 0 && $0.0.x < 255 }
    #expect(!partial.isEmpty && partial.allSatisfy { $0.1.isFinite })
  }
}
