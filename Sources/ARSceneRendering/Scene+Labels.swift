import ARGeo
import ARImage
import ARMath
import ARScene
import Foundation

extension Scene {
  /// Draws the objects' labels over `image` as `camera` sees them through `lens` (its
  /// intrinsics for the image's size; the pointers end where the lens shows their points, the
  /// panels stay upright): farthest first, so nearer labels cover farther ones; none for an
  /// object whose pointer's end is behind the camera. `size` is the text's pixels per em
  /// (default 3% of the image's shorter side).
  public func drawLabels(
    on image: inout RGBA8Image, camera: PinholeCamera<Double>, lens: LensDistortion = .none,
    size: Float? = nil
  ) {
    let size = size ?? max(10, 0.03 * Float(min(image.width, image.height)))
    var shown: [(distance: Double, pixel: SIMD2<Double>, text: String)] = []
    for object in objects {
      guard let label = object.label else { continue }
      let m = object.worldFromModel.columns.3
      let origin = SIMD3(Double(m.x), Double(m.y), Double(m.z))
      let tip = origin + SIMD3(0, label.height, 0)
      guard let projection = camera.project(tip), projection.depth > 0 else { continue }
      let distance = (origin - camera.worldFromCamera.translation).length
      let text =
        label.showsDistance ? "\(label.text) · \(DistanceText.formatted(distance))" : label.text
      let pixel =
        lens == .none
        ? projection.pixel : camera.intrinsics.pinhole.distortedPixel(projection.pixel, lens: lens)
      shown.append((distance, pixel, text))
    }
    let placed = Self.placeLabels(
      shown, size: size, imageSize: SIMD2(Double(image.width), Double(image.height)))
    for label in placed.reversed() {
      Self.paintLabel(label.text, pointingAt: label.tip, centre: label.centre, size: size, on: &image)
    }
  }

  /// A placed label: its text, the pixel its pointer ends at, its panel's centre and half size.
  typealias PlacedLabel = (text: String, tip: SIMD2<Double>, centre: SIMD2<Double>, half: SIMD2<Double>)

  /// The labels placed nearest first, each raised above the nearer panels it would cover (a
  /// longer pointer). Labels whose point projects far off the image (more than its size beyond
  /// an edge, or not finite: nearly behind the camera) are left out: they could not show, and
  /// at such magnitudes raising a panel by its height would not change its position.
  ///
  /// Each raise puts the panel strictly above the one it covered, so a label is raised at most
  /// once past each placed panel; the loop stops there in any case, and a label that still
  /// overlaps (an image too small to separate them) is drawn where it is, over the others.
  static func placeLabels(
    _ shown: [(distance: Double, pixel: SIMD2<Double>, text: String)], size: Float, imageSize: SIMD2<Double>
  ) -> [PlacedLabel] {
    var placed: [PlacedLabel] = []
    let gap = 0.25 * Double(size)
    for label in shown.sorted(by: { $0.distance < $1.distance }) {
      let p = label.pixel
      guard p.x.isFinite, p.y.isFinite, p.x > -imageSize.x, p.x < 2 * imageSize.x, p.y > -imageSize.y,
        p.y < 2 * imageSize.y
      else { continue }
      let half = Self.labelHalfSize(label.text, size: size)
      var centre = SIMD2(p.x, p.y - 0.9 * Double(size) - half.y)
      for _ in 0...placed.count {
        guard
          let covered = placed.first(where: {
            abs($0.centre.x - centre.x) < $0.half.x + half.x + gap
              && abs($0.centre.y - centre.y) < $0.half.y + half.y + gap
          })
        else { break }
        let raised = covered.centre.y - covered.half.y - gap - half.y
        guard raised < centre.y else { break }
        centre.y = raised
      }
      placed.append((label.text, p, centre, half))
    }
    return placed
  }

  /// Half the width and height of a label's panel, pixels.
  static func labelHalfSize(_ text: String, size: Float) -> SIMD2<Double> {
    let s = Double(size), padding = 0.45 * s
    return SIMD2((Double(LabelFont.width(of: text, size: size)) + 2 * padding) / 2, (s + 2 * padding) / 2)
  }

  /// One label: a pointer up from `tip` to a dark rounded panel at `centre` holding the text
  /// in white.
  static func paintLabel(
    _ text: String, pointingAt tip: SIMD2<Double>, centre: SIMD2<Double>, size: Float,
    on image: inout RGBA8Image
  ) {
    let s = Double(size)
    let textWidth = Double(LabelFont.width(of: text, size: size))
    let half = labelHalfSize(text, size: size)
    // Nothing of it on the image: nothing to do.
    guard centre.x + half.x >= 0, centre.x - half.x < Double(image.width),
      centre.y - half.y < Double(image.height),
      tip.y + s >= 0
    else { return }
    let radius = min(half.y, 0.5 * s)
    let panel = SIMD3<Float>(0.02, 0.02, 0.025), white = SIMD3<Float>(repeating: 1)
    // The pointer: a white line from the panel's bottom down to the tip, and a dot there.
    fill(on: &image, from: SIMD2(tip.x - s * 0.4, centre.y), to: SIMD2(tip.x + s * 0.4, tip.y + s * 0.4)) {
      p in
      let dx = abs(p.x - tip.x), dy = p.y - tip.y
      let line = dy <= 0 && p.y >= centre.y ? min(1, max(0, 0.5 + 0.08 * s - dx)) : 0
      let dot = min(1, max(0, 0.5 + 0.16 * s - (dx * dx + dy * dy).squareRoot()))
      return (white, Float(max(line, dot)) * 0.95)
    }
    // The panel: a rounded box, anti-aliased along its signed distance.
    fill(on: &image, from: centre - half - 1, to: centre + half + 1) { p in
      let q = SIMD2(abs(p.x - centre.x), abs(p.y - centre.y)) - (half - radius)
      let outside = SIMD2(max(q.x, 0), max(q.y, 0))
      let distance = (outside * outside).sum().squareRoot() + min(max(q.x, q.y), 0) - radius
      return (panel, Float(min(1, max(0, 0.5 - distance))) * 0.62)
    }
    // The text, its capitals (0.73 em tall in DejaVu Sans) centred in the panel.
    let baseline = centre.y + 0.365 * s
    LabelFont.draw(
      text, at: SIMD2(centre.x - textWidth / 2, baseline), size: size, color: white, into: &image)
  }

  /// Blends what `shade` gives (colour, coverage) for each pixel centre in the box.
  private static func fill(
    on image: inout RGBA8Image, from low: SIMD2<Double>, to high: SIMD2<Double>,
    _ shade: (SIMD2<Double>) -> (SIMD3<Float>, Float)
  ) {
    let x0 = max(0, Int(max(low.x, -1).rounded(.down))),
      x1 = min(image.width - 1, Int(min(high.x, 1e9).rounded(.up)))
    let y0 = max(0, Int(max(low.y, -1).rounded(.down))),
      y1 = min(image.height - 1, Int(min(high.y, 1e9).rounded(.up)))
    guard x0 <= x1, y0 <= y1 else { return }
    for y in y0...y1 {
      for x in x0...x1 {
        let (color, coverage) = shade(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        image.blend(color, coverage: coverage, at: y * image.width + x)
      }
    }
  }
}
