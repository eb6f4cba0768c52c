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

  public init(supersampling: Int = 1, threads: Int = 2) {
    self.supersampling = supersampling
    self.threads = threads
  }
}
