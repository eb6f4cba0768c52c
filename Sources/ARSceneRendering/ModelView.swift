import ARImage
import ARMath
import ARMesh
import ARRender

/// One model alone, seen by a camera: what `arscene render --model` draws. Untextured with
/// `unlit` or `lambert` shading, to compare a model's geometry and shading with other renderers
/// (llvmpipe, pyrender) without a scene; or with its own materials and textures, lit, as a
/// scene draws it (``init(mesh:textures:camera:worldFromModel:lighting:)``).
public struct ModelView: Sendable {
  /// The model's mesh: untextured, its materials' textures removed (none is decoded); textured,
  /// its materials' textures that ``textures`` lacks removed.
  public let mesh: Mesh
  /// The decoded images of the textures the mesh's materials sample, by path (empty untextured).
  public let textures: [String: RGBA8Image]
  /// The model's placement in the world.
  public var worldFromModel: Matrix4<Float>
  /// The camera (its pose in `Double`: a camera in projected or Earth-centred coordinates keeps
  /// its millimetres).
  public var camera: RenderCamera
  /// How the model is shaded.
  public var shading: ShadingMode
  /// Whether triangles seen from behind are left out (a `doubleSided` material's still drawn):
  /// off untextured, where a comparison wants every triangle; on with materials, as a scene
  /// object and a phone draw them.
  public var cullBackFaces: Bool

  /// The view of `mesh` (its textures dropped) through `camera`, placed by `worldFromModel`,
  /// every triangle drawn whichever way it faces.
  public init(
    mesh: Mesh, camera: RenderCamera, worldFromModel: Matrix4<Float> = .identity, shading: ShadingMode
  ) {
    var plain = mesh
    for m in plain.materials.indices { plain.materials[m].removeTextures() }
    self.mesh = plain
    self.textures = [:]
    self.camera = camera
    self.worldFromModel = worldFromModel
    self.shading = shading
    self.cullBackFaces = false
  }

  /// The view of `mesh` with its materials, drawn as a scene object is (`ShadingMode.lit(_:)`
  /// under `lighting`, back faces culled): each texture from `textures` (decoded images by
  /// path, ``TextureImages/decode(_:embedded:)``), a texture it lacks left out and its input
  /// drawn with its constant.
  public init(
    mesh: Mesh, textures: [String: RGBA8Image], camera: RenderCamera,
    worldFromModel: Matrix4<Float> = .identity,
    lighting: Lighting
  ) {
    var kept = mesh
    let missing = Set(mesh.texturePaths).subtracting(textures.keys)
    for m in kept.materials.indices where !missing.isEmpty { kept.materials[m].removeTextures(at: missing) }
    self.mesh = kept
    self.textures = textures
    self.camera = camera
    self.worldFromModel = worldFromModel
    self.shading = .lit(lighting)
    self.cullBackFaces = true
  }

  /// Unlit, or Lambert with the light along `towardsLight` (a unit direction in the world,
  /// towards the light) or, without one, from the camera (its +Z: towards the viewer's side).
  public static func shading(lit: Bool, towardsLight: SIMD3<Double>?, camera: RenderCamera) -> ShadingMode {
    guard lit else { return .unlit }
    return .lambert(towardsLight: lightDirection(towardsLight: towardsLight, camera: camera))
  }

  /// The lights a model is drawn with its materials under: a scene's default ambient (0.2) and
  /// one white directional light travelling away from `towardsLight` (a unit direction in the
  /// world, towards the light) or, without one, from the camera along its view, as a
  /// headlight: the side the camera sees is lit.
  public static func materialLighting(towardsLight: SIMD3<Double>?, camera: RenderCamera) -> Lighting {
    Lighting(directional: [(-lightDirection(towardsLight: towardsLight, camera: camera), SIMD3(repeating: 1))]
    )
  }

  /// `towardsLight`, else the camera's +Z (towards the viewer's side), in `Float`.
  private static func lightDirection(towardsLight: SIMD3<Double>?, camera: RenderCamera) -> SIMD3<Float> {
    SIMD3<Float>(towardsLight ?? camera.worldFromCamera.transformDirection([0, 0, 1]))
  }

  /// The rendered image, and with `depth` its depth.
  ///
  /// - Throws: `RenderError` for a mesh the renderer cannot take (a singular model matrix, more
  ///   triangles than it indexes, a texture too large to sample).
  public func render(settings: RenderSettings = RenderSettings(), depth: Bool = false) throws -> (
    image: RGBA8Image, depth: DepthImage?
  ) {
    let draws = [
      try DrawCall(
        mesh: mesh, worldFromModel: worldFromModel, cullBackFaces: cullBackFaces, textures: textures)
    ]
    guard depth else {
      return (try Renderer.render(draws, camera: camera, shading: shading, settings: settings), nil)
    }
    let (image, depthImage) = try FrameRenderer().renderWithDepth(
      draws, camera: camera, shading: shading, settings: settings)
    return (image, depthImage)
  }
}
