import ARImage
import ARMath
import ARRender
import ARScene

extension Scene {
  /// The scene as its lens shows it: the content rendered for the ideal pinhole camera over a
  /// region wide enough for every pixel the lens reaches, then each output pixel taking what the
  /// pinhole saw where the lens bends it from (bilinear, premultiplied linear light), over the
  /// camera frame (a raw frame, as the lens took it) or the background colour.
  func renderThroughLens(settings: RenderSettings, with renderer: FrameRenderer) throws(SceneError)
    -> RGBA8Image
  {
    let k = camera.intrinsics
    let (w, h) = (k.width, k.height)
    // The pinhole region the lens draws from: the undistorted image of the output's border
    // (a fisheye's corners may lie past its image circle: those pixels stay empty), at most
    // three times the output's size.
    var low = SIMD2<Double>(0, 0), high = SIMD2(Double(w), Double(h))
    let steps = 64
    for i in 0...steps {
      let t = Double(i) / Double(steps)
      for p in [
        SIMD2(t * Double(w), 0), SIMD2(t * Double(w), Double(h)), SIMD2(0, t * Double(h)),
        SIMD2(Double(w), t * Double(h)),
      ] {
        guard let q = k.undistortedPixel(p, lens: lens) else { continue }
        low = pointwiseMin(low, q)
        high = pointwiseMax(high, q)
      }
    }
    low = pointwiseMax(low - 2, SIMD2(-Double(w), -Double(h))).rounded(.down)
    high = pointwiseMin(high + 2, SIMD2(2 * Double(w), 2 * Double(h))).rounded(.up)
    var pinhole = self
    pinhole.lens = .none
    pinhole.background = nil
    pinhole.backgroundColor = .zero
    pinhole.film = nil
    pinhole.camera.intrinsics = CameraIntrinsics(
      fx: k.fx, fy: k.fy, cx: k.cx - low.x, cy: k.cy - low.y, width: Int(high.x - low.x),
      height: Int(high.y - low.y))
    let content: RGBA8Image
    do {
      content = try renderer.render(
        try pinhole.drawCalls(), camera: pinhole.renderCamera, shading: .lit(lighting), background: nil,
        backgroundColor: .zero, settings: settings, shadows: shadows)
    } catch let error as SceneError { throw error } catch {
      throw .render(path: path, reason: "\(error)")
    }
    var out = RGBA8Image(width: w, height: h, fill: .zero)
    let table = SRGB.decodeTable
    /// Premultiplied linear light of the pinhole render at pixel centre coordinates `p`.
    func sample(_ p: SIMD2<Double>) -> SIMD4<Float> {
      let x = p.x - low.x - 0.5, y = p.y - low.y - 0.5
      let (x0, y0) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
      let (fx, fy) = (Float(x - Double(x0)), Float(y - Double(y0)))
      var sum = SIMD4<Float>.zero
      for (dx, dy, weight) in [
        (0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy),
      ] {
        let (sx, sy) = (x0 + dx, y0 + dy)
        guard weight > 0, sx >= 0, sy >= 0, sx < content.width, sy < content.height else { continue }
        let c = content[sx, sy]
        let a = Float(c.w) / 255
        sum += weight * SIMD4(table[Int(c.x)] * a, table[Int(c.y)] * a, table[Int(c.z)] * a, a)
      }
      return sum
    }
    for y in 0..<h {
      for x in 0..<w {
        let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        let over = k.undistortedPixel(centre, lens: lens).map(sample) ?? .zero
        let under = background?[x, y] ?? backgroundColor
        let rgb = SIMD3(over.x, over.y, over.z) + (1 - over.w) * SIMD3(under.x, under.y, under.z)
        let alpha = over.w + (1 - over.w) * under.w
        out[x, y] = SIMD4(
          SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z), UInt8((alpha * 255).rounded()))
      }
    }
    return out
  }
}
