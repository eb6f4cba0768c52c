import ARImage
import ARMath
import ARMesh
import ARRender
import Testing

/// A model and a camera far from the world's origin (Earth-centred coordinates, 6,378 km out)
/// render as they do recentred: the renderer shades in a frame near the camera and composes
/// the large translations in `Double`.
@Suite("Rendering far from the origin")
struct FarFromOriginTests {
  /// Two spheres and a ground plate, in the model's own frame (metres).
  static let model: Mesh = {
    var mesh = Mesh.sphere(center: [0, 0.5, 0], radius: 0.5, subdivisions: 3)
    let small = Mesh.sphere(center: [0.9, 0.25, 0.3], radius: 0.25, subdivisions: 2)
    let base = UInt32(mesh.positions.count)
    mesh.positions += small.positions
    mesh.normals += small.normals
    mesh.indices += small.indices.map { $0 + base }
    mesh.submeshes = [Mesh.Submesh(triangles: 0..<mesh.triangleCount, material: 0)]
    return mesh
  }()

  static func render(origin: SIMD3<Double>, shading: ShadingMode) throws -> RGBA8Image {
    var mesh = Self.model
    mesh.origin = origin
    let local = RigidTransform<Double>.lookAt(eye: [1.5, 1.2, 2.5], target: [0.3, 0.4, 0], up: [0, 1, 0])!
    // The same rotation, the eye moved with the model.
    let pose = RigidTransform(rotation: local.rotation, translation: local.translation + origin)
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics(verticalFieldOfView: .degrees(50), width: 320, height: 240),
      worldFromCamera: pose, near: 0.05, far: 100)
    return try Renderer.render([try DrawCall(mesh: mesh)], camera: camera, shading: shading)
  }

  @Test(
    "a model at ECEF, UTM or S-JTSK coordinates renders to the pixels of the same model recentred",
    arguments: [
      SIMD3<Double>(6_378_137, 0, 0), [4_069_523.25, 1_068_003.5, 4_765_215.75],
      [455_210.3, 420, -5_535_210.3],
      [-741_880.55, 300, 1_052_330.45],
    ])
  func farModelRendersAsRecentred(origin: SIMD3<Double>) throws {
    for shading in [ShadingMode.unlit, .lambert(towardsLight: SIMD3<Float>(0.3, 0.8, 0.5).normalized())] {
      let near = try Self.render(origin: .zero, shading: shading)
      let far = try Self.render(origin: origin, shading: shading)
      let differing = zip(near.pixels, far.pixels).filter { $0 != $1 }.count
      let covered = near.pixels.filter { $0.x > 0 }.count
      #expect(covered > 5_000)
      #expect(differing == 0, "\(differing) pixels differ")
    }
  }

  @Test("the shading frame follows the camera: lit colours far away are those near the origin")
  func litFarAway() throws {
    let lighting = Lighting(
      ambient: SIMD3(repeating: 0.2), directional: [(SIMD3(-0.4, -1, -0.3), SIMD3(1, 1, 1))])
    let near = try Self.render(origin: .zero, shading: .lit(lighting))
    let far = try Self.render(origin: [6_378_137, 0, 0], shading: .lit(lighting))
    let differing = zip(near.pixels, far.pixels).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) pixels differ")
  }
}
