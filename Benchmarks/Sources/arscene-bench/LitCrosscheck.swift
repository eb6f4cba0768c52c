import ARImage
import ARRender
import ARScene
import ARSceneRendering
import LitOracle

extension MesaLit {
  /// Renders `scene` without anti-aliasing, as ARScene's lit mode does.
  func render(_ scene: Scene) throws(Unsupported) -> RGBA8Image {
    let draws: [DrawCall]
    do { draws = try scene.drawCalls() } catch { throw Unsupported(description: error.description) }
    return try render(
      draws, camera: scene.renderCamera, lighting: scene.lighting, background: scene.background,
      backgroundColor: scene.backgroundColor)
  }
}
