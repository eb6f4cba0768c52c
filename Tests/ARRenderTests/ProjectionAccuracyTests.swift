import ARImage
import ARMath
import ARMesh
import ARRender
import Testing

/// Content lands on the pixel the pinhole model predicts, to a fraction of a pixel, with
/// unequal focal lengths and an off-centre principal point, as ARKit's intrinsics have them.
@Suite("Projection accuracy")
struct ProjectionAccuracyTests {
  @Test(
    "a small disc facing the camera renders centred on its projection, to 0.05 px",
    arguments: [SIMD3<Double>(0.3, -0.2, -4), [-1.1, 0.7, -6], [0.05, 0.02, -1.5]])
  func discCentre(position: SIMD3<Double>) throws {
    let intrinsics = CameraIntrinsics<Double>(
      fx: 900, fy: 1100, cx: 301.7, cy: 222.3, width: 640, height: 480)
    // The camera away from the origin and turned, the disc placed in front of it.
    let worldFromCamera = RigidTransform<Double>(
      rotation: Quaternion(angle: .degrees(25), axis: [0.2, 1, 0.1]), translation: [2, 1.5, -3])
    let centre = worldFromCamera.transformPoint(position)
    // A 24-sided disc of radius 3 cm facing the camera (its normal towards the camera's origin).
    let towards = (worldFromCamera.translation - centre).normalized()
    let u = SIMD3<Double>(0, 1, 0).cross(towards).normalized(), v = towards.cross(u)
    var positions = [SIMD3<Float>(centre)]
    for k in 0..<24 {
      let a = Double(k) / 24 * 2 * .pi
      let along: SIMD3<Double> = u * Double.cos(a)
      let across: SIMD3<Double> = v * Double.sin(a)
      let offset = along + across
      let rim: SIMD3<Double> = centre + 0.03 * offset
      positions.append(SIMD3<Float>(rim))
    }
    var indices: [UInt32] = []
    for k in 0..<24 { indices += [0, UInt32(1 + k), UInt32(1 + (k + 1) % 24)] }
    let mesh = Mesh(
      positions: positions, normals: Array(repeating: SIMD3<Float>(towards), count: 25), indices: indices)
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics<Float>(intrinsics), worldFromCamera: worldFromCamera, near: 0.01, far: 100)
    // 8 × 8 samples a pixel: the coverage-weighted centroid resolves a small fraction of a pixel.
    let image = try Renderer.render(
      [try DrawCall(mesh: mesh, cullBackFaces: false)], camera: camera, shading: .unlit,
      settings: RenderSettings(supersampling: 8, threads: 2))
    var (sum, weight) = (SIMD2<Double>.zero, 0.0)
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y].x > 0 {
        let w = Double(image[x, y].x) / 255
        sum += w * SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        weight += w
      }
    }
    let measured = sum / weight
    // The disc's centre projects exactly; its outline is a near-ellipse whose centroid sits
    // within a few thousandths of a pixel of that at these distances.
    let predicted = try #require(intrinsics.projectARKit(position))
    #expect((measured - predicted).length < 0.05, "centroid \(measured), predicted \(predicted)")
  }
}
