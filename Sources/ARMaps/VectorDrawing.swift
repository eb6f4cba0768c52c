import ARImage
import ARMath
import Foundation

/// A drawing of a few kinds of shapes in pixel coordinates (origin top-left, y down), kept as a
/// list so that one drawing gives both an SVG file and a raster image that agree: what maps are
/// made of.
public struct VectorDrawing: Sendable {
  /// A colour: linear RGB with opacity (SVG gets it sRGB-encoded).
  public struct Paint: Sendable, Equatable {
    /// Linear RGB, each 0…1.
    public var rgb: SIMD3<Float>
    /// 0 (transparent) … 1 (opaque).
    public var opacity: Float
    /// A paint of linear `rgb` at `opacity`.
    public init(_ rgb: SIMD3<Float>, opacity: Float = 1) {
      self.rgb = rgb
      self.opacity = opacity
    }
  }

  /// A shape in pixel coordinates; widths are stroke widths in pixels.
  public enum Shape: Sendable {
    /// A closed polygon, filled and outlined as given.
    case polygon([SIMD2<Double>], fill: Paint?, stroke: Paint?, width: Double)
    /// An open line through the points, solid or dashed.
    case polyline([SIMD2<Double>], stroke: Paint, width: Double, dashed: Bool)
    /// A circle of `radius` pixels about the point.
    case circle(SIMD2<Double>, radius: Double, fill: Paint?, stroke: Paint?, width: Double, dashed: Bool)
    /// Text with its baseline's start (or middle, `centred`) at the point.
    case text(String, at: SIMD2<Double>, size: Double, paint: Paint, centred: Bool)
  }

  /// The drawing's size, pixels.
  public var width: Int, height: Int
  /// What fills the drawing behind its shapes.
  public var background: Paint
  /// The shapes, drawn in this order (later ones on top).
  public private(set) var shapes: [Shape] = []

  /// An empty drawing of `width × height` pixels.
  public init(width: Int, height: Int, background: Paint) {
    self.width = width
    self.height = height
    self.background = background
  }

  /// Draws `shape` over what is there.
  public mutating func add(_ shape: Shape) { shapes.append(shape) }

  // MARK: SVG

  /// The drawing as an SVG 1.1 document.
  public func svg() -> String {
    func colour(_ p: Paint) -> String {
      let c = SIMD3(SRGB.encode8(p.rgb.x), SRGB.encode8(p.rgb.y), SRGB.encode8(p.rgb.z))
      return String(format: "#%02x%02x%02x", c.x, c.y, c.z)
    }
    func paint(_ p: Paint?, _ kind: String) -> String {
      guard let p else { return " \(kind)=\"none\"" }
      return " \(kind)=\"\(colour(p))\"" + (p.opacity < 1 ? " \(kind)-opacity=\"\(p.opacity)\"" : "")
    }
    func points(_ list: [SIMD2<Double>]) -> String {
      list.map { String(format: "%.2f,%.2f", $0.x, $0.y) }.joined(separator: " ")
    }
    func escaped(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
      <rect width="\(width)" height="\(height)"\(paint(background, "fill"))/>

      """
    for shape in shapes {
      switch shape {
      case .polygon(let p, let fill, let stroke, let w):
        out +=
          "<polygon points=\"\(points(p))\"\(paint(fill, "fill"))\(paint(stroke, "stroke")) stroke-width=\"\(w)\"/>\n"
      case .polyline(let p, let stroke, let w, let dashed):
        out +=
          "<polyline points=\"\(points(p))\" fill=\"none\"\(paint(stroke, "stroke")) stroke-width=\"\(w)\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
          + (dashed ? " stroke-dasharray=\"\(3 * w),\(2 * w)\"" : "") + "/>\n"
      case .circle(let c, let r, let fill, let stroke, let w, let dashed):
        out +=
          String(format: "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", c.x, c.y, r) + paint(fill, "fill")
          + paint(stroke, "stroke") + " stroke-width=\"\(w)\""
          + (dashed ? " stroke-dasharray=\"\(3 * w),\(2 * w)\"" : "")
          + "/>\n"
      case .text(let s, let at, let size, let p, let centred):
        out +=
          String(
            format:
              "<text x=\"%.2f\" y=\"%.2f\" font-family=\"DejaVu Sans, sans-serif\" font-weight=\"bold\" font-size=\"%.1f\"",
            at.x, at.y, size)
          + paint(p, "fill") + (centred ? " text-anchor=\"middle\"" : "") + ">\(escaped(s))</text>\n"
      }
    }
    return out + "</svg>\n"
  }

  // MARK: Raster

  /// The drawing as an image: each shape's coverage of each pixel, anti-aliased, laid over the
  /// ones before it in linear light; text in the label font (DejaVu Sans Bold).
  public func image() -> RGBA8Image {
    let b = background
    let encoder = SRGB.Encoder.shared
    var image = RGBA8Image(
      width: width, height: height,
      fill: SIMD4(
        encoder.code(b.rgb.x), encoder.code(b.rgb.y), encoder.code(b.rgb.z),
        UInt8((b.opacity * 255).rounded())))
    for shape in shapes {
      switch shape {
      case .polygon(let p, let fill, let stroke, let w):
        if let fill {
          cover(&image, bounds(p, pad: 1), fill) { q in
            let d = Polyline2D.signedDistance(q, ring: p)
            return min(1, max(0, 0.5 - d))
          }
        }
        if let stroke {
          cover(&image, bounds(p, pad: w), stroke) { q in
            max(0, min(1, w / 2 + 0.5 - Polyline2D.nearest(q, on: p, closed: true).distance))
          }
        }
      case .polyline(let p, let stroke, let w, let dashed):
        cover(&image, bounds(p, pad: w), stroke) { q in
          let (d, along) = Polyline2D.nearest(q, on: p)
          if dashed, along.truncatingRemainder(dividingBy: 5 * w) > 3 * w { return 0 }
          return max(0, min(1, w / 2 + 0.5 - d))
        }
      case .circle(let c, let r, let fill, let stroke, let w, let dashed):
        let box = (c - r - w - 1, c + r + w + 1)
        if let fill {
          cover(&image, box, fill) { q in max(0, min(1, r - ((q - c) * (q - c)).sum().squareRoot() + 0.5)) }
        }
        if let stroke {
          cover(&image, box, stroke) { q in
            let v = q - c
            if dashed,
              (atan2(v.y, v.x) + .pi) * r / (5 * w) - ((atan2(v.y, v.x) + .pi) * r / (5 * w)).rounded(.down)
                > 0.6
            {
              return 0
            }
            return max(0, min(1, w / 2 + 0.5 - abs((v * v).sum().squareRoot() - r)))
          }
        }
      case .text(let s, let at, let size, let p, let centred):
        let x = centred ? at.x - Double(LabelFont.width(of: s, size: Float(size))) / 2 : at.x
        LabelFont.draw(
          s, at: SIMD2(x, at.y), size: Float(size), color: p.rgb, opacity: p.opacity, into: &image)
      }
    }
    return image
  }

  private func bounds(_ p: [SIMD2<Double>], pad: Double) -> (SIMD2<Double>, SIMD2<Double>) {
    let low = p.reduce(SIMD2(repeating: Double.infinity)) { pointwiseMin($0, $1) }
    let high = p.reduce(SIMD2(repeating: -Double.infinity)) { pointwiseMax($0, $1) }
    return (low - pad - 1, high + pad + 1)
  }

  /// Lays `paint` over the pixels of the box at the coverage `coverage` gives at their centres.
  private func cover(
    _ image: inout RGBA8Image, _ box: (SIMD2<Double>, SIMD2<Double>), _ paint: Paint,
    _ coverage: (SIMD2<Double>) -> Double
  ) {
    let x0 = max(0, Int(max(box.0.x, -1).rounded(.down))),
      x1 = min(width - 1, Int(min(box.1.x, 1e7).rounded(.up)))
    let y0 = max(0, Int(max(box.0.y, -1).rounded(.down))),
      y1 = min(height - 1, Int(min(box.1.y, 1e7).rounded(.up)))
    guard x0 <= x1, y0 <= y1 else { return }
    for y in y0...y1 {
      for x in x0...x1 {
        let c = coverage(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        if c > 0 { image.blend(paint.rgb, coverage: Float(c) * paint.opacity, at: y * width + x) }
      }
    }
  }
}
