import ARMath
import ARScene
import ARSceneRendering
import Testing

@testable import ARRender

/// The renderer's short ways on every shipped scene, against its general path.
@Suite("Shipped scenes on the renderer's short ways")
struct SceneFastPathTests {
  @Test(
    "the short ways for opaque triangles give the general path's bytes",
    arguments: ["zavist", "acupressure-hand", "marker-card", "hand-on-table"])
  func fourWideEqualsBatches(_ name: String) throws {
    let scene = try Scene.load(
      path: SceneRenderTests.packageRoot + "/Scenes/\(name).json", width: 200, height: 150)
    // The scene's own lights, and ambient light alone (textures and base colours only).
    for lighting in [scene.lighting, Lighting(ambient: scene.lighting.ambient, directional: [])] {
      for factor in [1, 2] {
        var batches = RenderSettings(supersampling: factor, threads: 2)
        batches.fastPaths = false
        let expected = try Renderer.render(
          try scene.drawCalls(), camera: scene.renderCamera, shading: .lit(lighting),
          background: scene.background,
          backgroundColor: scene.backgroundColor, settings: batches)
        let image = try Renderer.render(
          try scene.drawCalls(), camera: scene.renderCamera, shading: .lit(lighting),
          background: scene.background,
          backgroundColor: scene.backgroundColor, settings: RenderSettings(supersampling: factor, threads: 2))
        let differing = zip(image.pixels, expected.pixels).count { $0 != $1 }
        #expect(
          differing == 0,
          "\(name), \(lighting.directional.count) directional lights, factor \(factor): \(differing) pixels differ"
        )
      }
    }
  }
}
