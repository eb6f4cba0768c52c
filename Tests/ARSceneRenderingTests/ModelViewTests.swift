import ARImage
import ARMath
import ARMesh
import ARRender
import ARSceneRendering
import ARTestSupport
import Testing

/// `render --model`'s view of one model: untextured for comparisons, or with its own materials.
@Suite("Model view")
struct ModelViewTests {
  static let camera = RenderCamera(
    intrinsics: CameraIntrinsics<Float>(fx: 100, fy: 100, cx: 32, cy: 32, width: 64, height: 64),
    worldFromCamera: RigidTransform.lookAt(eye: SIMD3(1.2, 1.5, 1.6), target: .zero, up: SIMD3(0, 1, 0))!)

  @Test("with materials: textures decoded are kept, one missing is dropped from its material alone")
  func keepsDecodedTextures() throws {
    let asset = try ModelAsset.load(path: Fixtures.path("gltf/BoxTextured.glb"))
    let path = try #require(asset.mesh.texturePaths.first)
    let image = try TextureImages.decode(path, embedded: asset.embeddedImages)
    let lighting = ModelView.materialLighting(towardsLight: nil, camera: Self.camera)
    let textured = ModelView(
      mesh: asset.mesh, textures: [path: image], camera: Self.camera, lighting: lighting)
    #expect(textured.mesh.texturePaths == [path] && textured.cullBackFaces)
    let bare = ModelView(mesh: asset.mesh, textures: [:], camera: Self.camera, lighting: lighting)
    #expect(bare.mesh.texturePaths.isEmpty && bare.mesh.materials.count == asset.mesh.materials.count)
    #expect(bare.mesh.materials[0].diffuse == asset.mesh.materials[0].diffuse)
    // Untextured for comparisons: no texture, no culling.
    let plain = ModelView(mesh: asset.mesh, camera: Self.camera, shading: .unlit)
    #expect(plain.mesh.texturePaths.isEmpty && !plain.cullBackFaces)
  }

  @Test("the light travels along the camera's view unless a direction towards the light is given")
  func headlight() throws {
    let fromCamera = ModelView.materialLighting(towardsLight: nil, camera: Self.camera)
    let view = SIMD3<Float>(Self.camera.worldFromCamera.transformDirection([0, 0, -1]))
    #expect(
      fromCamera.directional.count == 1 && fromCamera.directional[0].direction.distance(to: view) < 1e-6)
    #expect(fromCamera.ambient == SIMD3(repeating: 0.2) && fromCamera.directional[0].color == SIMD3(1, 1, 1))
    let given = ModelView.materialLighting(towardsLight: SIMD3(0, 1, 0), camera: Self.camera)
    #expect(given.directional[0].direction == SIMD3(0, -1, 0))
  }
}
