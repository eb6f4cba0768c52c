import ARImage
import ARMath
import ARMesh
import ARRender

/// One model alone, seen by a camera, untextured: what `arscene render --model` draws to compare
/// a model's geometry and shading with other renderers (llvmpipe, pyrender) without a scene.
public struct ModelView: Sendable {
  /// The model's mesh, its materials' textures removed (none is decoded).
  public let mesh: Mesh
  /// The model's placement in the world.
  public var worldFromModel: Matrix4<Float>
  /// The camera (its pose in `Double`: a camera in projected or Earth-centred coordinates keeps
  /// its millimetres).
  public var camera: RenderCamera
  /// How the model is shaded.
  public var shading: ShadingMode

  /// The view of `mesh` (its textures dropped) through `camera`, placed by `worldFromModel`.
  public init(
    mesh: Mesh, camera: RenderCamera, worldFromModel: Matrix4<Float> = .identity, shading: ShadingMode
  ) {
    var plain = mesh
    for m in plain.materials.indices { plain.materials[m].removeTextures() }
    self.mesh = plain
    self.camera = camera
    self.worldFromModel = worldFromModel
    self.shading = shading
  }

  /// Unlit, or Lambert with the light along `towardsLight` (a unit direction in the world,
  /// towards the light) or, without one, from the camera (its +Z: towards the viewer's side).
  public static func shading(lit: Bool, towardsLight: SIMD3<Double>?, camera: RenderCamera) -> ShadingMode {
    guard lit else { return .unlit }
    return .lambert(
      towardsLight: towardsLight.map { SIMD3<Float>($0) }
        ?? SIMD3<Float>(camera.worldFromCamera.transformDirection([0, 0, 1])))
  }

  /// The rendered image, and with `depth` its depth.
  ///
  /// - Throws: `RenderError` for a mesh the renderer cannot take (a singular model matrix, more
  ///   triangles than it indexes).
  public func render(settings: RenderSettings = RenderSettings(), depth: Bool = false) throws -> (
    image: RGBA8Image, depth: DepthImage?
  ) {
    let draws = [try DrawCall(mesh: mesh, worldFromModel: worldFromModel, cullBackFaces: false)]
    guard depth else {
      return (try Renderer.render(draws, camera: camera, shading: shading, settings: settings), nil)
    }
    let (image, depthImage) = try FrameRenderer().renderWithDepth(
      draws, camera: camera, shading: shading, settings: settings)
    return (image, depthImage)
  }
}
