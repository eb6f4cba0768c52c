import ARImage

/// Real objects in front of virtual ones, from a recording's depth image: an overlay pixel is
/// hidden where the measured depth is nearer than the rendered one, with a soft edge, then
/// composited over the camera image in linear light.
///
/// Depth images are 16-bit millimetres along the view axis (0: no measurement), usually
/// smaller than the camera image (ARKit's 256×192 against 1920×1440) and sampled at the same
/// relative position; confidence images hold 0 (low), 1 (medium), 2 (high).
public struct DepthOcclusion: Sendable {
  /// Measurements below this confidence are not trusted to hide anything.
  public var minimumConfidence: UInt8
  /// Over this depth difference (metres) the virtual content fades from hidden to shown: the
  /// soft edge that the depth's noise and resolution call for.
  public var softness: Float = 0.05

  public init(minimumConfidence: UInt8 = 1) { self.minimumConfidence = minimumConfidence }

  /// `overlay` (straight alpha) with its `depth` (metres, +∞ where nothing is drawn), hidden
  /// where `measured` (millimetres) is nearer, composited over `camera`.
  public func composite(
    overlay: RGBA8Image, depth: DepthImage, over camera: RGBA8Image, measured: RGBA16Image,
    confidence: RGBA8Image?
  ) -> RGBA8Image {
    let table = SRGB.decodeTable
    let (w, h) = (overlay.width, overlay.height)
    var out = camera
    for y in 0..<h {
      // The depth pixel under this pixel's centre.
      let dy = min(measured.height - 1, Int((Double(y) + 0.5) * Double(measured.height) / Double(h)))
      for x in 0..<w {
        let i = y * w + x
        let o = overlay.pixels[i]
        guard o.w > 0 else { continue }
        var alpha = Float(o.w) / 255
        let dx = min(measured.width - 1, Int((Double(x) + 0.5) * Double(measured.width) / Double(w)))
        let mm = measured.pixels[dy * measured.width + dx].x
        let trusted = confidence.map { $0.pixels[dy * $0.width + dx].x >= minimumConfidence } ?? true
        if mm > 0, trusted, depth.pixels[i].isFinite {
          // Shown in full when the real surface is `softness/2` behind the virtual one,
          // hidden when it is that far in front.
          let real = Float(mm) / 1000
          alpha *= min(1, max(0, (real - depth.pixels[i]) / softness + 0.5))
        }
        guard alpha > 0 else { continue }
        let c = camera.pixels[i]
        var rgb = SIMD3<Float>.zero
        for k in 0..<3 {
          rgb[k] = table[Int(o[k])] * alpha + table[Int(c[k])] * (1 - alpha)
        }
        out.pixels[i] = SIMD4(SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z), c.w)
      }
    }
    return out
  }
}
