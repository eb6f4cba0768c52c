import ARImage
import ARMath
import Foundation

/// What stages share while a look is applied.
public struct FilmContext: Sendable {
  /// Seeds the random stages (grain, light leaks): the same seed gives the same bytes, on any
  /// number of threads.
  public var seed: UInt64
  /// Worker threads: at most this many run at once (every core by default).
  public var threads: Int
  /// Whether stages may run their AVX2 loops (`WideVectors`; the same bits as the portable
  /// ones): off in tests that hold the two to each other.
  var wideVectors = WideVectors.available

  /// A context with `seed` and at most `threads` worker threads (at least one).
  public init(seed: UInt64 = 0, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.seed = seed
    self.threads = max(1, threads)
  }
}
