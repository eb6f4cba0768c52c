/// Output size, anti-aliasing and threads of a render.
public struct RenderSettings: Sendable {
  /// Supersampling factor per axis (1 = none; 2 = 4 samples a pixel).
  public var supersampling: Int
  /// Worker threads (≥ 1). The output is identical byte for byte for any count.
  public var threads: Int
  /// The largest output side accepted, in pixels, so a typo cannot exhaust memory.
  public static let maximumSide = 16384
  /// The most worker threads accepted.
  public static let maximumThreads = 256
  /// The largest supersampling factor per axis (64 samples a pixel).
  public static let maximumSupersampling = 8
  /// Whether hidden surfaces are removed before shading (lit shading): each tile first finds
  /// which opaque triangle is in front at each sample, then shades each sample once, as
  /// tile-based GPUs do. The image is the same either way; off, every sample in front of what
  /// was drawn before it is shaded, which measures raw fill rate (layers drawn back to front
  /// are then all shaded, as a GPU without hidden-surface removal shades them).
  public var removesHiddenSurfaces = true
  /// Whether opaque triangles take the short ways: depth tested four samples at a time,
  /// written without blending, and (textured, one base colour, ambient light) shaded in one
  /// pass. Off, every sample takes the general path. The image is the same either way: tests
  /// turn it off to check so.
  var fastPaths = true

  /// Settings of `supersampling`² samples a pixel on `threads` threads.
  public init(supersampling: Int = 1, threads: Int = 2) {
    self.supersampling = supersampling
    self.threads = threads
  }

  /// Settings for `samples` samples a pixel on a square grid (1, 4, 9, … 64) and `threads`
  /// worker threads, checked.
  ///
  /// - Throws: ``RenderError/invalidSettings(_:)`` naming what is out of range.
  public init(samplesPerPixel samples: Int, threads: Int) throws(RenderError) {
    let root = Int(Double(samples).squareRoot().rounded())
    guard samples >= 1, root * root == samples, root <= Self.maximumSupersampling else {
      let most = Self.maximumSupersampling * Self.maximumSupersampling
      throw .invalidSettings("samples must be a square number from 1 to \(most) (1, 4, 9, 16, …)")
    }
    self.init(supersampling: root, threads: threads)
    try validate()
  }

  /// Checks the supersampling factor and thread count against their limits.
  ///
  /// - Throws: ``RenderError/invalidSettings(_:)`` naming what is out of range.
  public func validate() throws(RenderError) {
    guard (1...Self.maximumSupersampling).contains(supersampling) else {
      throw .invalidSettings("supersampling must be 1 to \(Self.maximumSupersampling)")
    }
    guard (1...Self.maximumThreads).contains(threads) else {
      throw .invalidSettings("threads must be 1 to \(Self.maximumThreads)")
    }
  }
}
