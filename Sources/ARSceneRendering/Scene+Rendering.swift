import ARFilm
import ARImage
import ARImageIO
import ARMesh
import ARRender
import ARScene

extension Scene {
  /// The renderer's draw calls for the scene, in file order (each object's model, then its point
  /// markers), with the textures the models' materials name read and decoded, each file once.
  ///
  /// - Throws: `SceneError.model(path:field:reason:)` naming the object whose texture cannot
  ///   be read or decoded, or is too large to sample.
  public func drawCalls() throws(SceneError) -> [DrawCall] {
    var images: [String: RGBA8Image] = [:]
    var draws: [DrawCall] = []
    for (i, object) in objects.enumerated() {
      let field = "objects[\(i)].model"
      do {
        for path in object.mesh.texturePaths where images[path] == nil {
          images[path] = try TextureImages.decode(path, embedded: object.embeddedImages)
        }
      } catch { throw .model(path: path, field: field, reason: error.description) }
      do {
        draws.append(
          try DrawCall(
            mesh: object.mesh, worldFromModel: object.worldFromModel, cullBackFaces: object.cullBackFaces,
            textures: images))
        for marker in object.pointMarkers {
          draws.append(try DrawCall(mesh: marker, worldFromModel: object.worldFromModel))
        }
      } catch { throw .model(path: path, field: field, reason: error.description) }
    }
    return draws
  }

  /// Renders the scene as its file describes it: lit, over its camera frame or background colour,
  /// with its objects' labels on top.
  ///
  /// - Parameters:
  ///   - settings: Supersampling and threads.
  ///   - renderer: Reuses its buffers from frame to frame (a recording's frames).
  /// - Returns: 8-bit sRGB RGBA at the camera's size.
  /// - Throws: `SceneError` for a texture that cannot be decoded or a frame that cannot be
  ///   rendered (`SceneError.render(path:reason:)`).
  public func render(
    settings: RenderSettings = RenderSettings(), with renderer: FrameRenderer = FrameRenderer()
  ) throws(SceneError) -> RGBA8Image {
    var image: RGBA8Image
    if lens != .none {
      image = try renderThroughLens(settings: settings, with: renderer).image
    } else {
      let draws = try drawCalls()
      do {
        image = try renderer.render(
          draws, camera: renderCamera, shading: .lit(lighting), background: background,
          backgroundColor: backgroundColor, settings: settings, shadows: shadows)
      } catch { throw .render(path: path, reason: error.description) }
    }
    if let film { image = film.apply(to: image, context: FilmContext(threads: settings.threads)) }
    drawLabels(on: &image, camera: camera, lens: lens)
    return image
  }

  /// Renders the scene as ``render(settings:with:)`` does, and its depth: each pixel's distance
  /// along the camera's view axis to the nearest opaque surface (metres, +∞ where the
  /// background shows).
  public func renderWithDepth(
    settings: RenderSettings = RenderSettings(), with renderer: FrameRenderer = FrameRenderer()
  ) throws(SceneError) -> (image: RGBA8Image, depth: DepthImage) {
    var rendered: (image: RGBA8Image, depth: DepthImage)
    if lens != .none {
      let bent = try renderThroughLens(settings: settings, with: renderer, withDepth: true)
      rendered = (bent.image, bent.depth!)
    } else {
      let draws = try drawCalls()
      do {
        rendered = try renderer.renderWithDepth(
          draws, camera: renderCamera, shading: .lit(lighting), background: background,
          backgroundColor: backgroundColor, settings: settings, shadows: shadows)
      } catch { throw .render(path: path, reason: error.description) }
    }
    if let film {
      rendered.image = film.apply(to: rendered.image, context: FilmContext(threads: settings.threads))
    }
    drawLabels(on: &rendered.image, camera: camera, lens: lens)
    return rendered
  }

  /// The scene's content alone, over nothing: RGBA with straight alpha (0 where nothing is
  /// drawn, fractional on anti-aliased edges), to composite elsewhere.
  public func overlay(
    settings: RenderSettings = RenderSettings(), with renderer: FrameRenderer = FrameRenderer()
  ) throws(SceneError) -> RGBA8Image {
    var bare = self
    bare.background = nil
    bare.backgroundColor = .zero
    bare.film = nil  // a look belongs on the finished frame, not on content over nothing
    return try bare.render(settings: settings, with: renderer)
  }
}
