import ARImage

/// The ring an app flashes where a finger touched the screen, drawn over a finished frame: a
/// white ring with a dark rim (visible on light and dark images), anti-aliased, fading out over
/// its ``duration``.
public struct TapCursor: Sendable, Equatable {
  /// The ring's radius to the middle of its stroke, pixels.
  public var radius: Double
  /// How long the ring shows after the tap, seconds; its opacity falls linearly to 0.
  public var duration: Double

  /// A cursor of `radius` pixels showing for `duration` seconds.
  public init(radius: Double = 22, duration: Double = 0.6) {
    self.radius = radius
    self.duration = duration
  }

  /// A cursor sized for an image of `width` × `height` pixels: its radius 2.5% of the shorter side.
  public init(forWidth width: Int, height: Int, duration: Double = 0.6) {
    self.init(radius: max(6, 0.025 * Double(min(width, height))), duration: duration)
  }

  /// Draws the ring at `centre` (pixels, top-left origin, pixel centres at +0.5) as it looks
  /// `age` seconds after the tap; nothing once it has faded.
  public func draw(at centre: SIMD2<Double>, age: Double, into image: inout RGBA8Image) {
    guard age >= 0, age < duration, centre.x.isFinite, centre.y.isFinite else { return }
    let fade = Float(1 - age / duration)
    let stroke = max(1.5, radius / 8)  // half the white stroke's width
    let rim = stroke + 1.5  // half the dark rim's width, around it
    let reach = radius + rim + 1
    let (x0, x1) = (max(0, Int(centre.x - reach)), min(image.width - 1, Int(centre.x + reach)))
    let (y0, y1) = (max(0, Int(centre.y - reach)), min(image.height - 1, Int(centre.y + reach)))
    guard x0 <= x1, y0 <= y1 else { return }
    for y in y0...y1 {
      for x in x0...x1 {
        let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
        let off = abs((dx * dx + dy * dy).squareRoot() - radius)
        // Coverage of a band of half-width h at distance `off` from its middle, over one pixel.
        let white = Float(min(1, max(0, stroke + 0.5 - off))) * fade
        let dark = Float(min(1, max(0, rim + 0.5 - off))) * fade * 0.45
        guard dark > 0 else { continue }
        image.blend(.zero, coverage: dark, at: y * image.width + x)
        image.blend(SIMD3(repeating: 1), coverage: white, at: y * image.width + x)
      }
    }
  }
}
