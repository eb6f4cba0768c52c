/// How marker detection decides which pixels are dark before it looks for markers' outlines.
enum DarkRule: Sendable, Hashable {
  /// Below the mean of the `window` × `window` pixels around by more than 7 levels.
  case windowMean(Int)
  /// Below the midpoint of the darkest and lightest pixels in the 3 × 3 tiles of 4 × 4 pixels
  /// around (the AprilTag library's rule), where those are far enough apart
  /// (``GreyImage/midpointThreshold()``).
  case tileMidpoint

  /// The rule for an image of half the size: the same reach in the scene.
  var halved: DarkRule {
    switch self {
    case .windowMean(let window): .windowMean(window / 2 | 1)
    case .tileMidpoint: .tileMidpoint
    }
  }
}
