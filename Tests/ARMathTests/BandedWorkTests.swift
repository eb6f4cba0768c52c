import ARMath
import Foundation
import Testing

/// `forEachBand`: every band exactly once, and never more threads at once than the caller gave.
@Suite("Banded work")
struct BandedWorkTests {
  /// Counts of what ran, behind a lock.
  final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var seen: [Int] = []
    private(set) var running = 0, mostAtOnce = 0
    func begin(_ band: Int) {
      lock.withLock {
        seen.append(band)
        running += 1
        mostAtOnce = max(mostAtOnce, running)
      }
    }
    func end() { lock.withLock { running -= 1 } }
  }

  @Test("each band once, at most the given threads at a time", arguments: [1, 2, 3, 16])
  func bands(threads: Int) {
    for bands in [0, 1, 7, 200] {
      let tally = Tally()
      forEachBand(bands, threads: threads) { band in
        tally.begin(band)
        Thread.sleep(forTimeInterval: 0.0002)  // long enough for threads to overlap
        tally.end()
      }
      #expect(tally.seen.sorted() == Array(0..<bands))
      #expect(tally.mostAtOnce <= max(1, threads))
    }
  }
}
