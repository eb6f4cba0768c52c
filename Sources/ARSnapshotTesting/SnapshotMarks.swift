import ARImage

/// The 2D marks a snapshot draws over the rendered view: dots, rings and labels, each edge
/// anti-aliased by the pixel's covered share (a 4×4 grid of samples), in linear light.
enum SnapshotMarks {
  /// A filled circle of `radius` pixels about `centre` (pixels, top-left origin).
  static func disc(at centre: SIMD2<Double>, radius: Double, color: SIMD3<Float>, on image: inout RGBA8Image)
  {
    cover(centre: centre, reach: radius, color: color, on: &image) { d in d <= radius }
  }

  /// A ring of `radius` pixels (its middle) and `width` pixels about `centre`.
  static func ring(
    at centre: SIMD2<Double>, radius: Double, width: Double, color: SIMD3<Float>, on image: inout RGBA8Image
  ) {
    cover(centre: centre, reach: radius + width, color: color, on: &image) { d in abs(d - radius) <= width / 2
    }
  }

  /// `text` with its baseline's left end at `origin`, `size` pixels per em, over a
  /// half-transparent dark box so that it reads on any background.
  static func label(
    _ text: String, at origin: SIMD2<Double>, size: Double, color: SIMD3<Float>, on image: inout RGBA8Image
  ) {
    let width = Double(LabelFont.width(of: text, size: Float(size)))
    let (ascent, descent) = LabelFont.extent(size: Float(size))
    let pad = size * 0.2
    let x0 = max(0, Int((origin.x - pad).rounded(.down)))
    let x1 = min(image.width - 1, Int((origin.x + width + pad).rounded(.up)))
    let y0 = max(0, Int((origin.y - Double(ascent) - pad).rounded(.down)))
    let y1 = min(image.height - 1, Int((origin.y + Double(descent) + pad).rounded(.up)))
    if x0 <= x1, y0 <= y1 {
      for y in y0...y1 {
        for x in x0...x1 { image.blend(.zero, coverage: 0.55, at: y * image.width + x) }
      }
    }
    LabelFont.draw(text, at: origin, size: Float(size), color: color, into: &image)
  }

  /// Blends `color` over the pixels within `reach` of `centre` by the share of each pixel's
  /// 16 samples that `inside` (of the sample's distance from the centre) accepts.
  private static func cover(
    centre: SIMD2<Double>, reach: Double, color: SIMD3<Float>, on image: inout RGBA8Image,
    inside: (Double) -> Bool
  ) {
    let x0 = max(0, Int((centre.x - reach - 1).rounded(.down)))
    let x1 = min(image.width - 1, Int((centre.x + reach + 1).rounded(.up)))
    let y0 = max(0, Int((centre.y - reach - 1).rounded(.down)))
    let y1 = min(image.height - 1, Int((centre.y + reach + 1).rounded(.up)))
    guard x0 <= x1, y0 <= y1 else { return }
    for y in y0...y1 {
      for x in x0...x1 {
        var hits = 0
        for sy in 0..<4 {
          for sx in 0..<4 {
            let p = SIMD2(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) - centre
            if inside((p * p).sum().squareRoot()) { hits += 1 }
          }
        }
        image.blend(color, coverage: Float(hits) / 16, at: y * image.width + x)
      }
    }
  }
}
