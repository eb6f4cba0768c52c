import Atomics
import Dispatch

/// Runs `body(band)` for every band in `0..<bands` on at most `threads` threads, the calling
/// thread alone when `threads` is 1 or there is one band.
///
/// Each thread takes the next band not yet taken (one atomic counter, a band being many rows or
/// blocks, never a pixel), so bands of uneven cost even out. The count is a cap a user can rely
/// on: `DispatchQueue.concurrentPerform` alone spreads its iterations over every core whatever
/// the caller meant, which made `--threads 1` run on two.
package func forEachBand(_ bands: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
  guard bands > 0 else { return }
  let workers = min(max(1, threads), bands)
  guard workers > 1 else {
    for band in 0..<bands { body(band) }
    return
  }
  let next = ManagedAtomic<Int>(0)
  DispatchQueue.concurrentPerform(iterations: workers) { _ in
    while case let band = next.loadThenWrappingIncrement(ordering: .relaxed), band < bands {
      body(band)
    }
  }
}
