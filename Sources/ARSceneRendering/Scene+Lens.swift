import ARImage
import ARMath
import ARRender
import ARScene

extension Scene {
  /// The scene as its lens shows it (see ``LensWarp``): the content rendered for the ideal
  /// pinhole camera over a region wide enough for every pixel the lens reaches, bent onto the
  /// lens's pixels, over the camera frame (a raw frame, as the lens took it) or the background
  /// colour.
  /// With `withDepth`, the depth too (metres along the view axis, +∞ where nothing is drawn),
  /// each pixel the nearest pinhole pixel's.
  func renderThroughLens(settings: RenderSettings, with renderer: FrameRenderer, withDepth: Bool = false)
    throws(SceneError) -> (image: RGBA8Image, depth: DepthImage?)
  {
    let warp = LensWarp(intrinsics: camera.intrinsics, lens: lens)
    var pinhole = self
    pinhole.lens = .none
    pinhole.background = nil
    pinhole.backgroundColor = .zero
    pinhole.film = nil
    pinhole.camera.intrinsics = warp.pinhole
    let content: RGBA8Image, depth: DepthImage?
    do {
      let draws = try pinhole.drawCalls()
      if withDepth {
        let rendered = try renderer.renderWithDepth(
          draws, camera: pinhole.renderCamera, shading: .lit(lighting), background: nil,
          backgroundColor: .zero,
          settings: settings, shadows: shadows)
        (content, depth) = (rendered.image, warp.warped(rendered.depth))
      } else {
        content = try renderer.render(
          draws, camera: pinhole.renderCamera, shading: .lit(lighting), background: nil,
          backgroundColor: .zero, settings: settings, shadows: shadows)
        depth = nil
      }
    } catch let error as SceneError { throw error } catch {
      throw .render(path: path, reason: "\(error)")
    }
    let over = warp.premultiplied(content)
    var out = RGBA8Image(width: over.width, height: over.height, fill: .zero)
    for y in 0..<out.height {
      for x in 0..<out.width {
        let o = over[x, y]
        let under = background?[x, y] ?? backgroundColor
        let rgb = SIMD3(o.x, o.y, o.z) + (1 - o.w) * SIMD3(under.x, under.y, under.z)
        let alpha = o.w + (1 - o.w) * under.w
        out[x, y] = SIMD4(
          SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z), UInt8((alpha * 255).rounded()))
      }
    }
    return (out, depth)
  }
}
