import ARImage

/// A film's characteristic curve, per channel: a monotone spline (``MonotoneCurve``) through
/// control points in display-encoded units (sRGB, 0 black to 1 white, as photo editors draw
/// curves), with the blacks lifted and the whites compressed.
///
/// Parameters: `points` (`[[x, y], …]`, each in 0…1, x increasing; default the diagonal),
/// `black` (the output for black, 0…0.5: a faded film's lifted blacks; default the curve's own)
/// and `white` (the output for white, 0.5…1: compressed highlights). Linear values above 1 are
/// treated as white.
public struct ToneCurve: FilmStage {
  /// The stage's key in a preset file: `tone_curve`.
  public static let key = "tone_curve"
  /// The curve from display-encoded input to output, black lift and white compression applied.
  public let curve: MonotoneCurve
  let table: ChannelTable?

  /// The stage from a preset's parameters, each checked against the range above.
  public init(_ p: FilmParameters) throws(FilmError) {
    try p.only(["points", "black", "white"])
    var points = try p.pairs("points", in: 0...1) ?? [SIMD2(0, 0), SIMD2(1, 1)]
    guard zip(points, points.dropFirst()).allSatisfy({ $0.x < $1.x }), points.count >= 2 else {
      throw p.fail("points", "expected at least two points with x increasing")
    }
    if p.values["black"] != nil {
      let black = try p.number("black", in: 0...0.5, default: 0)
      if points[0].x == 0 { points[0].y = black } else { points.insert(SIMD2(0, black), at: 0) }
    }
    if p.values["white"] != nil {
      let white = try p.number("white", in: 0.5...1, default: 1)
      if points[points.count - 1].x == 1 {
        points[points.count - 1].y = white
      } else {
        points.append(SIMD2(1, white))
      }
    }
    guard let curve = MonotoneCurve(points: points) else { throw p.fail("points", "x must increase") }
    self.curve = curve
    // The diagonal through (0, 0) and (1, 1) changes nothing: leave the image as it is.
    let identity = points.allSatisfy { $0.x == $0.y } && points.first!.x == 0 && points.last!.x == 1
    table = identity ? nil : ChannelTable { v in Encoding.decode(curve.value(at: Encoding.encode(v))) }
  }

  /// The stage made ready for an image of this size; nil when it changes nothing.
  public func step(width: Int, height: Int, context: FilmContext) -> FilmStep? {
    table?.step
  }
}
